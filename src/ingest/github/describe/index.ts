/**
 * GitHub webhook event → natural-language observations for an agent's memory stream.
 * Pure: no I/O. The per-family files document what is kept, what is ignored as noise, and why;
 * docs/github-ingest.md has the whole table. Events not listed here are ignored, never an error.
 */
import type {
  CheckSuiteEvent,
  CodeScanningAlertEvent,
  CreateEvent,
  DeleteEvent,
  DependabotAlertEvent,
  DiscussionCommentEvent,
  DiscussionEvent,
  ForkEvent,
  IssueCommentEvent,
  IssuesEvent,
  PullRequestEvent,
  PullRequestReviewCommentEvent,
  PullRequestReviewEvent,
  PushEvent,
  ReleaseEvent,
  SecurityAdvisoryEvent,
  StarEvent,
  WorkflowRunEvent,
} from "@octokit/webhooks-types";
import { describeCheckSuite, describeWorkflowRun } from "./checks.js";
import { clip, ignored } from "./common.js";
import { describeDiscussion, describeDiscussionComment } from "./discussion.js";
import { describeIssue, describeIssueComment } from "./issues.js";
import { describePullRequest } from "./pull-request.js";
import { describePush } from "./push.js";
import { describeRef } from "./refs.js";
import { describeRelease } from "./release.js";
import { describeReview, describeReviewComment } from "./review.js";
import { describeCodeScanningAlert, describeDependabotAlert, describeSecurityAdvisory } from "./security.js";
import { describeFork, describeStar } from "./social.js";
import type { DescribeResult } from "./types.js";

export type { DescribeResult, GithubMetadata, GithubObservation } from "./types.js";

/** Longest description kept; the describers already clip titles, bodies and lists well below it. */
export const MAX_DESCRIPTION = 1000;

type Describer = { requires: string[]; describe: (payload: unknown) => DescribeResult };

/**
 * Binds a typed describer to the payload objects it cannot work without (checked before the cast,
 * so a payload without one is ignored with a reason that names it, e.g. "push payload has no
 * repository", not with the JavaScript error reading it would raise).
 */
function on<T>(requires: string | string[], describe: (payload: T) => DescribeResult): Describer {
  return { requires: [requires].flat(), describe: (payload) => describe(payload as T) };
}

const DESCRIBERS: Record<string, Describer> = {
  push: on<PushEvent>(["commits", "repository"], describePush),
  pull_request: on<PullRequestEvent>("pull_request", describePullRequest),
  pull_request_review: on<PullRequestReviewEvent>("review", describeReview),
  pull_request_review_comment: on<PullRequestReviewCommentEvent>("comment", describeReviewComment),
  issues: on<IssuesEvent>("issue", describeIssue),
  issue_comment: on<IssueCommentEvent>("comment", describeIssueComment),
  workflow_run: on<WorkflowRunEvent>("workflow_run", describeWorkflowRun),
  check_suite: on<CheckSuiteEvent>("check_suite", describeCheckSuite),
  release: on<ReleaseEvent>("release", describeRelease),
  create: on<CreateEvent>("repository", (p) => describeRef("create", p)),
  delete: on<DeleteEvent>("repository", (p) => describeRef("delete", p)),
  discussion: on<DiscussionEvent>("discussion", describeDiscussion),
  discussion_comment: on<DiscussionCommentEvent>("comment", describeDiscussionComment),
  star: on<StarEvent>("repository", describeStar),
  fork: on<ForkEvent>(["forkee", "repository"], describeFork),
  security_advisory: on<SecurityAdvisoryEvent>("security_advisory", describeSecurityAdvisory),
  dependabot_alert: on<DependabotAlertEvent>("alert", describeDependabotAlert),
  code_scanning_alert: on<CodeScanningAlertEvent>("alert", describeCodeScanningAlert),
};

/** Covered events whose payload has no `action`; every other covered event is told by its action. */
const ACTIONLESS = new Set(["push", "create", "delete", "fork"]);

/** Covered on purpose but never remembered, with the reason recorded. */
const ALWAYS_IGNORED: Record<string, string> = {
  check_run: "check_run is summarised by check_suite and workflow_run",
  workflow_job: "workflow_job is summarised by workflow_run",
  watch: "watch started duplicates star created",
  ping: "ping only confirms the webhook is set up",
};

/** Turns one webhook delivery (event name from `X-GitHub-Event`, parsed body) into observations or an ignore reason. */
export function describeEvent(event: string, payload: unknown): DescribeResult {
  const always = ALWAYS_IGNORED[event];
  if (always) return ignored(always);
  const describer = DESCRIBERS[event];
  if (!describer) return ignored(`event ${event} is not covered`);
  if (typeof payload !== "object" || payload === null) return ignored(`${event} payload is not an object`);
  const missing = describer.requires.find((key) => {
    const value = (payload as Record<string, unknown>)[key];
    return typeof value !== "object" || value === null;
  });
  if (missing !== undefined) return ignored(`${event} payload has no ${missing}`);
  if (!ACTIONLESS.has(event) && typeof (payload as { action?: unknown }).action !== "string") {
    return ignored(`${event} payload has no action`);
  }
  let result: DescribeResult;
  try {
    result = describer.describe(payload);
  } catch (error) {
    // A payload that passed the signature check but lacks a field we read: record why, do not fail
    // the delivery (GitHub would only redeliver the same body). Anything else is our bug: rethrow.
    // The reason names the event, not the JavaScript error (which means nothing to a reader).
    if (error instanceof TypeError) {
      return ignored(`malformed ${event} payload: a field memstream reads is missing or null`);
    }
    throw error;
  }
  if (result.status === "ignored") return result;
  const observations = result.observations.map((o) => ({
    ...o,
    description: clip(o.description, MAX_DESCRIPTION),
  }));
  return { status: "observations", observations };
}
