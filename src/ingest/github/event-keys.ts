/**
 * Identity of a GitHub event, the same whether it arrives by webhook or is rebuilt from the REST
 * API by the import, so it is stored once per agent (`github_event_keys`). Only events the import
 * can produce have keys; others are deduplicated by their delivery id alone.
 *
 *   issues opened / closed          <repo>#issue-<n>:opened, <repo>#issue-<n>:closed@<closed_at>
 *   pull_request opened / closed    <repo>#pr-<n>:opened,    <repo>#pr-<n>:closed@<closed_at>
 *   pull_request_review submitted   <repo>#review-<review id>
 *   issue_comment created           <repo>#comment-<comment id> (issues and pull requests alike)
 *   release published               <repo>#release-<release id>
 *   push                            <repo>@<sha> for each commit (a push covers several)
 */
import { toIso } from "./describe/common";

type Keyed = {
  action?: string;
  repository?: { full_name?: string } | null;
  issue?: { number?: number; closed_at?: string | null };
  pull_request?: { number?: number; closed_at?: string | null };
  review?: { id?: number };
  comment?: { id?: number };
  release?: { id?: number };
  commits?: { id?: string }[];
};

/** The keys of an event; empty when it has none (or lacks what they are made of). */
export function eventKeys(event: string, payload: unknown): string[] {
  const p = (typeof payload === "object" && payload !== null ? payload : {}) as Keyed;
  const repo = p.repository?.full_name?.toLowerCase();
  if (!repo) return [];
  const lifecycle = (kind: string, item: { number?: number; closed_at?: string | null } | undefined) => {
    if (item?.number === undefined) return [];
    if (p.action === "opened") return [`${repo}#${kind}-${item.number}:opened`];
    const closedAt = toIso(item.closed_at);
    if (p.action === "closed" && closedAt) return [`${repo}#${kind}-${item.number}:closed@${closedAt}`];
    return [];
  };
  switch (event) {
    case "issues":
      return lifecycle("issue", p.issue);
    case "pull_request":
      return lifecycle("pr", p.pull_request);
    case "pull_request_review":
      return p.action === "submitted" && p.review?.id !== undefined ? [`${repo}#review-${p.review.id}`] : [];
    case "issue_comment":
      return p.action === "created" && p.comment?.id !== undefined ? [`${repo}#comment-${p.comment.id}`] : [];
    case "release":
      return p.action === "published" && p.release?.id !== undefined
        ? [`${repo}#release-${p.release.id}`]
        : [];
    case "push":
      return (p.commits ?? []).flatMap((c) => (c.id ? [commitKey(repo, c.id)] : []));
    default:
      return [];
  }
}

/** The key of one commit of `repo`. */
export const commitKey = (repo: string, sha: string) => `${repo.toLowerCase()}@${sha}`;
