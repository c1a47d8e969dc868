/**
 * REST objects → webhook-shaped events, so the import goes through the same describers, noise
 * rules, importance and event keys as the webhooks and a backfilled stream reads like a live one.
 *
 * What the REST lists can tell, and so what is imported:
 *   issue          → issues opened (at created_at); issues closed (at closed_at) when closed
 *   pull request   → pull_request opened; closed, merged or not (at closed_at)
 *   review         → pull_request_review submitted (approved, changes requested, commented)
 *   comment        → issue_comment created (at created_at), on an issue or a pull request's conversation
 *   release        → release published (drafts skipped)
 *   commit         → a push of that one commit to the default branch (at its committer date)
 * The lists do not say who closed an issue or merged a pull request (only a request per item
 * would), so those observations name "someone" unless the object carries `closed_by`/`merged_by`.
 * Intermediate history (reopened, assigned, review requested) is not in the lists and is not
 * imported. Each event's repository carries `pushed_at`/`updated_at` = the event's own time, so a
 * describer's fallback time is never the repository's latest push.
 */
import type { GithubEvent } from "../store-event";

type User = { login: string; type?: string } | null | undefined;
export type RestRepo = {
  full_name: string;
  default_branch: string;
  owner: { login: string };
  [k: string]: unknown;
};
export type RestIssue = {
  number: number;
  state: string;
  user: User;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by?: User;
  pull_request?: unknown;
  /** How many comments the issue has (GitHub always sends it; absent means unknown). */
  comments?: number;
  [k: string]: unknown;
};
export type RestComment = {
  id: number;
  user: User;
  body: string | null;
  created_at: string;
  [k: string]: unknown;
};
export type RestPull = {
  number: number;
  user: User;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  merged_at: string | null;
  merged_by?: User;
  [k: string]: unknown;
};
export type RestReview = {
  id: number;
  state: string;
  user: User;
  submitted_at?: string | null;
  [k: string]: unknown;
};
export type RestRelease = {
  id: number;
  draft: boolean;
  author: User;
  published_at: string | null;
  [k: string]: unknown;
};
export type RestCommit = {
  sha: string;
  html_url: string;
  author: User;
  commit: {
    message: string;
    author: { name?: string; email?: string; date?: string } | null;
    committer: { date?: string } | null;
  };
  [k: string]: unknown;
};

/** Stands in for an actor the REST list does not name. */
const SOMEONE = { login: "someone", type: "User" };

/** The repository as of `time`. */
const at = (repo: RestRepo, time: string) => ({ ...repo, pushed_at: time, updated_at: time });
const after = (time: string | null | undefined, since: Date | null) =>
  !!time && (!since || Date.parse(time) >= since.getTime());

/** An issue's opening and closing (pull requests in the issues list are skipped: see pullEvents). */
export function issueEvents(issue: RestIssue, repo: RestRepo, since: Date | null): GithubEvent[] {
  if (issue.pull_request) return [];
  const out: GithubEvent[] = [];
  if (after(issue.created_at, since)) {
    out.push({
      name: "issues",
      payload: { action: "opened", issue, repository: at(repo, issue.created_at), sender: issue.user },
    });
  }
  if (issue.state === "closed" && issue.closed_at && after(issue.closed_at, since)) {
    out.push({
      name: "issues",
      payload: {
        action: "closed",
        issue,
        repository: at(repo, issue.closed_at),
        sender: issue.closed_by ?? SOMEONE,
      },
    });
  }
  return out;
}

/** A pull request's opening and closing (merged when `merged_at` is set). */
export function pullEvents(pr: RestPull, repo: RestRepo, since: Date | null): GithubEvent[] {
  const out: GithubEvent[] = [];
  if (after(pr.created_at, since)) {
    out.push({
      name: "pull_request",
      payload: { action: "opened", pull_request: pr, repository: at(repo, pr.created_at), sender: pr.user },
    });
  }
  if (pr.closed_at && after(pr.closed_at, since)) {
    const merged = !!pr.merged_at;
    out.push({
      name: "pull_request",
      payload: {
        action: "closed",
        pull_request: { ...pr, merged, merged_by: pr.merged_by ?? null },
        repository: at(repo, pr.closed_at),
        sender: (merged ? pr.merged_by : null) ?? SOMEONE,
      },
    });
  }
  return out;
}

const REVIEW_STATES: Record<string, string> = {
  APPROVED: "approved",
  CHANGES_REQUESTED: "changes_requested",
  COMMENTED: "commented",
};

/** A submitted review; pending ones (not submitted) and dismissed ones (their verdict is gone) are skipped. */
export function reviewEvents(
  review: RestReview,
  pr: RestPull,
  repo: RestRepo,
  since: Date | null,
): GithubEvent[] {
  const state = REVIEW_STATES[review.state];
  if (!state || !review.submitted_at || !after(review.submitted_at, since)) return [];
  return [
    {
      name: "pull_request_review",
      payload: {
        action: "submitted",
        review: { ...review, state },
        pull_request: pr,
        repository: at(repo, review.submitted_at),
        sender: review.user ?? SOMEONE,
      },
    },
  ];
}

/**
 * A comment on an issue or a pull request's conversation, as the webhook's `issue_comment
 * created`. `on` is the issue (from the issues list) or the pull request (from the pulls list,
 * marked as one, as the webhook's `issue.pull_request` marks it).
 */
export function commentEvents(
  comment: RestComment,
  on: { number: number; title?: unknown; html_url?: unknown; pullRequest: boolean },
  repo: RestRepo,
  since: Date | null,
): GithubEvent[] {
  if (!after(comment.created_at, since)) return [];
  const issue = {
    number: on.number,
    title: on.title,
    html_url: on.html_url,
    ...(on.pullRequest ? { pull_request: { html_url: on.html_url } } : {}),
  };
  return [
    {
      name: "issue_comment",
      payload: {
        action: "created",
        comment,
        issue,
        repository: at(repo, comment.created_at),
        sender: comment.user ?? SOMEONE,
      },
    },
  ];
}

/** A published release. */
export function releaseEvents(release: RestRelease, repo: RestRepo, since: Date | null): GithubEvent[] {
  if (release.draft || !after(release.published_at, since)) return [];
  const time = release.published_at as string;
  return [
    {
      name: "release",
      payload: {
        action: "published",
        release,
        repository: at(repo, time),
        sender: release.author ?? SOMEONE,
      },
    },
  ];
}

/** One commit of the default branch as a push of that commit. */
export function commitEvents(commit: RestCommit, repo: RestRepo): GithubEvent[] {
  const time = commit.commit.committer?.date ?? commit.commit.author?.date;
  if (!time) return [];
  const pushed = {
    id: commit.sha,
    message: commit.commit.message,
    timestamp: time,
    url: commit.html_url,
    author: { name: commit.commit.author?.name ?? "", email: commit.commit.author?.email ?? "" },
  };
  return [
    {
      name: "push",
      payload: {
        ref: `refs/heads/${repo.default_branch}`,
        after: commit.sha,
        created: false,
        deleted: false,
        forced: false,
        compare: commit.html_url,
        commits: [pushed],
        head_commit: pushed,
        pusher: { name: commit.commit.author?.name ?? "someone" },
        // The GitHub account behind the commit when it is linked to one.
        ...(commit.author ? { sender: commit.author } : {}),
        repository: at(repo, time),
      },
    },
  ];
}
