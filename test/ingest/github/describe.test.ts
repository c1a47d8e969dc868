import { describe, expect, it } from "vitest";
import { describeEvent, type GithubObservation } from "../../../src/ingest/github/describe/index.js";
import { child, example, exampleWhere } from "./fixtures.js";

/** The single observation an event must produce. */
function only(event: string, payload: unknown): GithubObservation {
  const result = describeEvent(event, payload);
  if (result.status !== "observations") throw new Error(`ignored: ${result.reason}`);
  expect(result.observations).toHaveLength(1);
  return result.observations[0] as GithubObservation;
}

const PR = `pull request #2 "Update the README with new information." in Codertocat/Hello-World`;
const ISSUE = `issue #1 "Spelling error in the README file" in Codertocat/Hello-World`;

describe("descriptions of GitHub's example payloads, word by word", () => {
  it("pull_request opened", () => {
    const o = only("pull_request", example("pull_request", "opened"));
    expect(o.description).toBe(`Codertocat opened ${PR} (1 file changed)`);
    expect(o.createdAt).toBe("2019-05-15T15:20:33.000Z");
    expect(o.importance).toBeUndefined();
    expect(o.metadata).toMatchObject({
      source: "github",
      event: "pull_request",
      action: "opened",
      repository: "Codertocat/Hello-World",
      actor: "Codertocat",
      number: 2,
      url: "https://github.com/Codertocat/Hello-World/pull/2",
      ref: "master",
    });
  });

  it("pull_request closed and merged (the examples have no merge: this one is marked merged)", () => {
    const payload = example("pull_request", "closed");
    Object.assign(child(payload, "pull_request"), { merged: true, merged_at: "2019-05-15T15:21:17Z" });
    const o = only("pull_request", payload);
    expect(o.description).toBe(`Codertocat merged ${PR} into master`);
    expect(o.createdAt).toBe("2019-05-15T15:21:17.000Z");
    expect(o.importance).toBe(6);
    expect(o.metadata.merged).toBe(true);
  });

  it("pull_request closed without merging", () => {
    const o = only("pull_request", example("pull_request", "closed"));
    expect(o.description).toBe(`Codertocat closed ${PR} without merging`);
    expect(o.createdAt).toBe("2019-05-15T15:21:18.000Z");
  });

  it("pull_request review_requested and ready_for_review", () => {
    expect(only("pull_request", example("pull_request", "review_requested")).description).toBe(
      `Codertocat requested a review from octocat on ${PR}`,
    );
    expect(only("pull_request", example("pull_request", "ready_for_review")).description).toBe(
      `Codertocat marked ${PR} as ready for review`,
    );
  });

  it("push", () => {
    const o = only(
      "push",
      exampleWhere("push", (p) => p.ref === "refs/heads/master"),
    );
    expect(o.description).toBe(
      `Codertocat pushed 1 commit to new branch master in Codertocat/Hello-World: "Initial commit"`,
    );
    expect(o.createdAt).toBe("2019-05-15T15:20:57.000Z");
    expect(o.metadata).toMatchObject({ event: "push", ref: "master", commits: 1, forced: false });
  });

  it("issues opened", () => {
    const o = only("issues", example("issues", "opened"));
    expect(o.description).toBe(
      `Codertocat opened ${ISSUE} (labels: bug): "It looks like you accidently spelled 'commit' with two 't's."`,
    );
    expect(o.createdAt).toBe("2019-05-15T15:20:18.000Z");
    expect(o.metadata).toMatchObject({ event: "issues", action: "opened", number: 1 });
  });

  it("issue_comment created", () => {
    const o = only("issue_comment", example("issue_comment", "created"));
    expect(o.description).toBe(
      `Codertocat commented on ${ISSUE}: "You are totally right! I'll get this fixed right away."`,
    );
    expect(o.createdAt).toBe("2019-05-15T15:20:21.000Z");
    expect(o.metadata.url).toBe("https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400");
  });

  it("pull_request_review submitted", () => {
    const o = only("pull_request_review", example("pull_request_review", "submitted"));
    expect(o.description).toBe(`Codertocat reviewed ${PR} with comments`);
    expect(o.createdAt).toBe("2019-05-15T15:20:38.000Z");
    expect(o.metadata.reviewState).toBe("commented");
  });

  it("workflow_run completed with failure (the examples only succeed: this one is marked failed)", () => {
    const payload = example("workflow_run", "completed");
    Object.assign(child(payload, "workflow_run"), { conclusion: "failure" });
    const o = only("workflow_run", payload);
    expect(o.description).toBe(
      `CI workflow "Manually triggered workflow" failed on main in Codertocat/Hello-World (run #36)`,
    );
    expect(o.importance).toBe(8);
    expect(o.metadata).toMatchObject({ event: "workflow_run", conclusion: "failure", ref: "main" });
  });

  it("release published", () => {
    const o = only("release", example("release", "published"));
    expect(o.description).toBe("Codertocat published release 0.0.1 in Codertocat/Hello-World");
    expect(o.createdAt).toBe("2019-05-15T15:20:53.000Z");
    expect(o.importance).toBe(7);
  });

  it("create tag, and create branch (the examples only create tags: this one is a branch)", () => {
    expect(only("create", example("create")).description).toBe(
      "Codertocat created tag simple-tag in Codertocat/Hello-World",
    );
    const payload = { ...example("create"), ref: "feature-x", ref_type: "branch" };
    const o = only("create", payload);
    expect(o.description).toBe("Codertocat created branch feature-x in Codertocat/Hello-World");
    expect(o.createdAt).toBe("2019-05-15T15:20:56.000Z");
    expect(o.metadata).toMatchObject({ ref: "feature-x", refType: "branch" });
  });

  it("star created", () => {
    const o = only("star", example("star", "created"));
    expect(o.description).toBe("Codertocat starred Codertocat/Hello-World (1 star now)");
    expect(o.createdAt).toBe("2019-05-15T15:20:40.000Z");
  });
});

describe("payloads with null or empty fields: a clean description or a clean ignore reason", () => {
  const withChild = (event: string, action: string, key: string, fields: Record<string, unknown>) => {
    const payload = example(event, action);
    Object.assign(child(payload, key), fields);
    return payload;
  };

  it("an issue with an empty or null title is named by its number alone", () => {
    for (const title of ["", "   ", null]) {
      const o = only("issues", withChild("issues", "opened", "issue", { title, body: null }));
      expect(o.description).toBe("Codertocat opened issue #1 in Codertocat/Hello-World (labels: bug)");
    }
    const pr = only("pull_request", withChild("pull_request", "closed", "pull_request", { title: "" }));
    expect(pr.description).toBe(
      "Codertocat closed pull request #2 in Codertocat/Hello-World without merging",
    );
  });

  it("a comment whose body is null or blank is ignored for having no text", () => {
    for (const body of [null, "", " \n "]) {
      expect(
        describeEvent("issue_comment", withChild("issue_comment", "created", "comment", { body })),
      ).toEqual({
        status: "ignored",
        reason: "comment without text",
      });
    }
    expect(
      describeEvent(
        "pull_request_review_comment",
        withChild("pull_request_review_comment", "created", "comment", { body: null }),
      ),
    ).toEqual({ status: "ignored", reason: "review comment without text" });
  });

  it("a comment on an issue without a title still reads cleanly", () => {
    const payload = example("issue_comment", "created");
    Object.assign(child(payload, "issue"), { title: null });
    const o = only("issue_comment", payload);
    expect(o.description).toMatch(/^Codertocat commented on issue #1 in Codertocat\/Hello-World: "/);
    expect(o.description).not.toContain('""');
  });

  it("a push of a commit without a message lists it as such", () => {
    const payload = exampleWhere("push", (p) => p.ref === "refs/heads/master");
    const commits = (payload as { commits: Record<string, unknown>[] }).commits;
    if (commits.length === 0) commits.push({ id: "abc", message: null, author: { name: "x" } });
    for (const c of commits) c.message = null;
    expect(only("push", payload).description).toContain("(no message)");
  });

  it("a payload missing a field it reads is ignored with a reason that names the event, not a JavaScript error", () => {
    const result = describeEvent("pull_request", { action: "opened", pull_request: {} });
    expect(result).toEqual({
      status: "ignored",
      reason: "malformed pull_request payload: a field memstream reads is missing or null",
    });
  });
});
