/**
 * pull_request → "alice opened pull request #42 "Fix JWT expiry" in acme/api (3 files changed)".
 *
 * Kept: opened (draft or not), closed (merged or not), reopened, review_requested, ready_for_review.
 * Ignored, with the reason: synchronize (the push event records the commits), edited, labeled,
 * unlabeled, assigned, unassigned, locked, unlocked, milestoned, demilestoned, converted_to_draft,
 * review_request_removed, auto_merge_*, enqueued, dequeued: bookkeeping an agent would not recall.
 * Bots are kept: pull requests are discrete and their merges change what ships.
 * Importance: a merged pull request is 6.
 */
import type { PullRequestEvent } from "@octokit/webhooks-types";
import { baseMetadata, eventTime, ignored, inRepo, observed, plural, titled } from "./common.js";
import type { DescribeResult, GithubObservation } from "./types.js";

/** Describes a pull request lifecycle event. */
export function describePullRequest(payload: PullRequestEvent): DescribeResult {
  const pr = payload.pull_request;
  const actor = payload.sender.login;
  const subject = `pull request #${pr.number}${titled(pr.title)}${inRepo(payload)}`;
  const base = (description: string, time: unknown): GithubObservation => ({
    description,
    createdAt: eventTime(payload, time, pr.updated_at),
    metadata: {
      ...baseMetadata("pull_request", payload),
      number: pr.number,
      url: pr.html_url,
      ref: pr.base.ref,
      headRef: pr.head.ref,
      title: pr.title,
    },
  });

  switch (payload.action) {
    case "opened": {
      const files =
        typeof pr.changed_files === "number" ? ` (${plural(pr.changed_files, "file")} changed)` : "";
      const kind = pr.draft ? "draft pull request" : "pull request";
      return observed(
        base(
          `${actor} opened ${kind} #${pr.number}${titled(pr.title)}${inRepo(payload)}${files}`,
          pr.created_at,
        ),
      );
    }
    case "closed": {
      if (pr.merged) {
        const merger = pr.merged_by?.login ?? actor;
        const o = base(`${merger} merged ${subject} into ${pr.base.ref}`, pr.merged_at);
        return observed({ ...o, importance: 6, metadata: { ...o.metadata, actor: merger, merged: true } });
      }
      const o = base(`${actor} closed ${subject} without merging`, pr.closed_at);
      return observed({ ...o, metadata: { ...o.metadata, merged: false } });
    }
    case "reopened":
      return observed(base(`${actor} reopened ${subject}`, pr.updated_at));
    case "ready_for_review":
      return observed(base(`${actor} marked ${subject} as ready for review`, pr.updated_at));
    case "review_requested": {
      const who =
        "requested_reviewer" in payload && payload.requested_reviewer
          ? payload.requested_reviewer.login
          : "requested_team" in payload
            ? `team ${payload.requested_team.name}`
            : "a reviewer";
      return observed(base(`${actor} requested a review from ${who} on ${subject}`, pr.updated_at));
    }
    default:
      return ignored(`pull_request ${payload.action} is not remembered`);
  }
}
