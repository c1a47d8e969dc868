/**
 * check_run, check_suite, workflow_run (and workflow_job): CI results.
 *
 * Noise rules — CI sends several events per commit and most of them say "still fine":
 * - check_run and workflow_job are always ignored: one per job, summarised by check_suite/workflow_run;
 * - only `completed` matters; requested, rerequested, in_progress and requested_action are ignored;
 * - successes, cancellations, skips and neutral results are ignored. A payload does not say how the
 *   previous run ended, so a "fixed" observation would need state we do not keep here;
 * - failure, timed_out and startup_failure are recorded on every branch, by bots too;
 * - a check_suite from GitHub Actions is ignored: its workflow_run says the same with the workflow name.
 * Importance: a failure on the repository's default branch is 8; elsewhere the scorer decides.
 */
import type { CheckSuiteEvent, WorkflowRunEvent } from "@octokit/webhooks-types";
import { type BasePayload, baseMetadata, eventTime, ignored, inRepo, observed } from "./common.js";
import type { DescribeResult } from "./types.js";

const FAILED: Record<string, string> = {
  failure: "failed",
  timed_out: "timed out",
  startup_failure: "failed to start",
};

function failureImportance(payload: BasePayload, branch: string | null): { importance?: number } {
  return branch !== null && branch === payload.repository?.default_branch ? { importance: 8 } : {};
}

/** Describes a finished GitHub Actions workflow run; only failures are remembered. */
export function describeWorkflowRun(payload: WorkflowRunEvent): DescribeResult {
  if (payload.action !== "completed") return ignored(`workflow_run ${payload.action} is not remembered`);
  const run = payload.workflow_run;
  const conclusion = run.conclusion ?? "none";
  const verb = FAILED[conclusion];
  if (!verb) return ignored(`workflow run concluded ${conclusion}: only failures are remembered`);
  const name = run.name || payload.workflow.name;
  const where = run.head_branch ? `on ${run.head_branch}` : `at ${run.head_sha.slice(0, 7)}`;
  return observed({
    description: `CI workflow ${JSON.stringify(name)} ${verb} ${where}${inRepo(payload)} (run #${run.run_number})`,
    createdAt: eventTime(payload, run.updated_at, run.run_started_at),
    ...failureImportance(payload, run.head_branch),
    metadata: {
      ...baseMetadata("workflow_run", payload),
      url: run.html_url,
      ...(run.head_branch ? { ref: run.head_branch } : {}),
      conclusion,
      workflow: name,
      headSha: run.head_sha,
      runAttempt: run.run_attempt,
    },
  });
}

/** Describes a finished check suite from an app other than GitHub Actions; only failures are remembered. */
export function describeCheckSuite(payload: CheckSuiteEvent): DescribeResult {
  if (payload.action !== "completed") return ignored(`check_suite ${payload.action} is not remembered`);
  const suite = payload.check_suite;
  if (suite.app.slug === "github-actions")
    return ignored("GitHub Actions check suite: recorded from workflow_run");
  const conclusion = suite.conclusion ?? "none";
  const verb = FAILED[conclusion];
  if (!verb) return ignored(`check suite concluded ${conclusion}: only failures are remembered`);
  const where = suite.head_branch ? `on ${suite.head_branch}` : `at ${suite.head_sha.slice(0, 7)}`;
  return observed({
    description: `Checks by ${suite.app.name} ${verb} ${where}${inRepo(payload)} (commit ${suite.head_sha.slice(0, 7)})`,
    createdAt: eventTime(payload, suite.updated_at),
    ...failureImportance(payload, suite.head_branch),
    metadata: {
      ...baseMetadata("check_suite", payload),
      ...(suite.head_branch ? { ref: suite.head_branch } : {}),
      conclusion,
      app: suite.app.slug ?? suite.app.name,
      headSha: suite.head_sha,
    },
  });
}
