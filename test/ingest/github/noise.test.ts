import { describe, expect, it } from "vitest";
import { describeEvent, type GithubObservation } from "../../../src/ingest/github/describe/index.js";
import { child, example, exampleWhere } from "./fixtures.js";

const bot = { login: "dependabot[bot]", type: "Bot" };

function only(event: string, payload: unknown): GithubObservation {
  const result = describeEvent(event, payload);
  if (result.status !== "observations") throw new Error(`ignored: ${result.reason}`);
  return result.observations[0] as GithubObservation;
}

function branchPush(): Record<string, unknown> {
  return exampleWhere("push", (p) => p.ref === "refs/heads/master");
}

describe("push caps and noise", () => {
  it("lists the first line of at most 5 commits, each cut to 120 characters, then the rest as a count", () => {
    const payload: Record<string, unknown> = { ...branchPush(), created: false };
    const long = "x".repeat(200);
    payload.commits = [`Fix login\n\nLonger body`, long, "c3", "c4", "c5", "c6", "c7"].map((message) => ({
      message,
    }));
    expect(only("push", payload).description).toBe(
      `Codertocat pushed 7 commits to master in Codertocat/Hello-World: "Fix login"; "${"x".repeat(119)}…"; "c3"; "c4"; "c5"; and 2 more`,
    );
  });

  it("ignores a bot's push to another branch but keeps one to the default branch", () => {
    const feature = { ...branchPush(), ref: "refs/heads/dependabot/npm/lodash", sender: bot };
    expect(describeEvent("push", feature)).toEqual({
      status: "ignored",
      reason: "push by a bot to a non-default branch",
    });
    expect(only("push", { ...branchPush(), sender: bot }).metadata.actor).toBe("dependabot[bot]");
  });

  it("marks a force-push to the default branch as important", () => {
    const o = only("push", { ...branchPush(), created: false, forced: true });
    expect(o.description).toBe(
      `Codertocat force-pushed 1 commit to master in Codertocat/Hello-World: "Initial commit"`,
    );
    expect(o.importance).toBe(7);
  });

  it("ignores tag pushes and deletions, which create/delete record", () => {
    expect(describeEvent("push", example("push")).status).toBe("ignored");
  });
});

describe("CI noise", () => {
  it("ignores check runs, workflow jobs and successful runs", () => {
    expect(describeEvent("check_run", example("check_run", "completed")).status).toBe("ignored");
    expect(describeEvent("workflow_job", example("workflow_job", "completed")).status).toBe("ignored");
    const success = exampleWhere("workflow_run", (p) => child(p, "workflow_run").conclusion === "success");
    expect(describeEvent("workflow_run", success)).toEqual({
      status: "ignored",
      reason: "workflow run concluded success: only failures are remembered",
    });
  });

  it("records a failed check suite on another branch, by a bot, without importance", () => {
    const payload = { ...example("check_suite", "completed"), sender: bot };
    Object.assign(child(payload, "check_suite"), { conclusion: "timed_out" });
    const o = only("check_suite", payload);
    expect(o.description).toBe(
      "Checks by octocoders-linter timed out on changes in Codertocat/Hello-World (commit ec26c3e)",
    );
    expect(o.importance).toBeUndefined();
  });
});

describe("bots and bookkeeping", () => {
  it("ignores comments by bots", () => {
    const payload = example("issue_comment", "created");
    Object.assign(child(payload, "comment"), { user: bot });
    expect(describeEvent("issue_comment", payload)).toEqual({
      status: "ignored",
      reason: "comment by a bot",
    });
  });

  it("ignores pull request synchronize and labels", () => {
    expect(describeEvent("pull_request", example("pull_request", "synchronize")).status).toBe("ignored");
    expect(describeEvent("pull_request", example("pull_request", "labeled")).status).toBe("ignored");
  });

  it("records a star once: watch started is ignored", () => {
    expect(describeEvent("watch", example("watch")).status).toBe("ignored");
  });

  it("marks a published security advisory as important", () => {
    expect(only("security_advisory", example("security_advisory", "published")).importance).toBe(9);
  });
});
