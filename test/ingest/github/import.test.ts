import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubImports, memories } from "../../../src/db/schema";
import { openImport } from "../../../src/ingest/github/import/imports";
import { runImport } from "../../../src/ingest/github/import/run-import";
import { uniq } from "../../support/env";
import { deliver, waitForDeliveries } from "../../support/github";
import { fixtureRepo, type StubGithub, startStubGithub } from "../../support/stub-github";
import { startTestSystem, type TestSystem } from "../../support/system";

// The repository import against a GitHub-shaped stub: pages and Link headers, a rate-limit answer
// and 5xx, resume after a crash, re-runs, and the overlap with webhook deliveries.
const SECRET = "import-secret";
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ env: { GITHUB_WEBHOOK_SECRET: SECRET } });
});
afterAll(() => t.close());

/** A fresh repository (its own agent) of `n` of everything behind its own stub, 2 items a page. */
async function setup(n = 5) {
  const name = uniq("api");
  const repo = fixtureRepo("acme", name, n);
  const stub = await startStubGithub(repo, { pageSize: 2 });
  return { repo, stub, full: `acme/${name}`, agent: `github:acme/${name}` };
}
const github = (stub: StubGithub) => ({ token: "test-token", baseUrl: stub.url, timeUnitMs: 20 });
const start = async (full: string, since: string | null = null) =>
  (await openImport(t.system.services, { repo: full, agentIds: [], since })).import.id;
/** The repository's issues list (not an issue's comments). */
const ISSUES_LIST = /\/issues(\?|$)/;
const stream = (agent: string) =>
  t.system.services.db.select().from(memories).where(eq(memories.agentId, agent)).orderBy(memories.createdAt);

describe("GitHub repository import", () => {
  it("reads every page of issues, pull requests, reviews, releases and commits into observations at their own times", async () => {
    const { stub, full, agent } = await setup();
    const done = await runImport(t.system.services, await start(full), { github: github(stub) });
    expect(done).toMatchObject({
      status: "succeeded",
      // 5 issues, 5 pull requests with 2 reviews each, 3 releases, 5 commits
      counts: { fetched: 28, stored: 30, duplicates: 0, ignored: 0, rateLimited: 0 },
    });
    // Several pages per list, followed through the Link headers.
    expect(
      stub.requests
        .filter((r) => ISSUES_LIST.test(r))
        .map((r) => new URL(r, "http://x").searchParams.get("page") ?? "1"),
    ).toEqual(["1", "2", "3"]);
    const rows = await stream(agent);
    expect(rows).toHaveLength(30);
    const byText = (text: string) => rows.find((r) => r.description.includes(text));
    expect(byText("reporter1 opened issue #1")).toMatchObject({
      createdAt: new Date("2025-01-02T00:00:00Z"),
    });
    expect(byText("someone closed issue #1")?.description).toContain("as completed");
    expect(byText("someone merged pull request #102")).toMatchObject({
      importance: 6,
      importanceStatus: "ready",
    });
    expect(byText("reviewer approved pull request #101")?.description).toContain("Looks good");
    expect(byText("published release v1.0.0")).toMatchObject({ importance: 7 });
    expect(byText("published pre-release v1.1.0-rc1")).toMatchObject({
      importance: null,
      importanceStatus: "pending",
    });
    expect(byText("dev3 pushed 1 commit to main")).toMatchObject({
      createdAt: new Date("2025-01-04T06:00:00Z"),
    });
    expect(rows.some((r) => r.description.includes("drafter") || r.description.includes("v2.0.0"))).toBe(
      false,
    );
    expect(rows.every((r) => r.metadata.source === "github" && r.metadata.importId === done.id)).toBe(true);
    await stub.close();
  });

  it("stores nothing on a re-run", async () => {
    const { stub, full, agent } = await setup();
    await runImport(t.system.services, await start(full), { github: github(stub) });
    const again = await runImport(t.system.services, await start(full), { github: github(stub) });
    expect(again.counts).toMatchObject({ stored: 0, duplicates: 30 });
    expect(await stream(agent)).toHaveLength(30);
    await stub.close();
  });

  it("waits out a rate-limit answer and retries a 5xx", async () => {
    const { stub, full } = await setup();
    stub.fault({ match: /\/issues\?.*[&]page=2\b/, times: 1, kind: "rate-limit", resetInSeconds: 1 });
    stub.fault({ match: /\/commits/, times: 1, kind: "status", status: 502 });
    const done = await runImport(t.system.services, await start(full), { github: github(stub) });
    expect(done).toMatchObject({ status: "succeeded", counts: { stored: 30, rateLimited: 1 } });
    expect(stub.requests.filter((r) => /\/issues\?.*[&]page=2\b/.test(r))).toHaveLength(2);
    expect(stub.requests.filter((r) => /\/commits\?/.test(r) && !/[?&]page=/.test(r))).toHaveLength(2);
    await stub.close();
  });

  it("resumes after a crash at the page it had not finished, without reading earlier pages again", async () => {
    const { stub, full, agent } = await setup();
    const id = await start(full);
    stub.fault({ match: /\/pulls\?.*[&]page=2\b/, times: 100, kind: "status", status: 500 });
    await expect(runImport(t.system.services, id, { github: github(stub) })).rejects.toThrow();
    const [failed] = await t.system.services.db.select().from(githubImports).where(eq(githubImports.id, id));
    expect(failed).toMatchObject({ status: "failed", phase: "pulls" });
    expect(failed?.cursor).toMatch(/\/pulls\?.*[&]page=2\b/);
    // issues (8) and the first page of pull requests (2 opened, 2 closed, 2 reviews)
    expect(await stream(agent)).toHaveLength(14);

    stub.clearFaults();
    const seen = stub.requests.length;
    const done = await runImport(t.system.services, id, { github: github(stub) });
    expect(done).toMatchObject({ status: "succeeded", counts: { stored: 30, duplicates: 0 } });
    const after = stub.requests.slice(seen);
    expect(after.some((r) => ISSUES_LIST.test(r))).toBe(false);
    expect(after.find((r) => r.includes("/pulls?"))).toMatch(/page=2/);
    expect(await stream(agent)).toHaveLength(30);
    await stub.close();
  });

  it("brings issue and pull-request comments at their own times, once, and bot or empty ones not at all", async () => {
    const name = uniq("api");
    const repo = fixtureRepo("acme", name, 2);
    const comment = (id: number, login: string, body: string | null, at: string) => ({
      id,
      user: { login, type: login.endsWith("[bot]") ? "Bot" : "User" },
      body,
      html_url: `https://github.com/acme/${name}/issues/1#issuecomment-${id}`,
      created_at: at,
      updated_at: at,
    });
    repo.comments[1] = [
      comment(9001, "maintainer", "We decided to drop Safari 14 support instead", "2025-01-02T10:00:00Z"),
      comment(9002, "ci[bot]", "Build passed", "2025-01-02T11:00:00Z"),
      comment(9003, "drive-by", null, "2025-01-02T12:00:00Z"),
    ];
    Object.assign(repo.issues[0] as object, { comments: 3 });
    repo.comments[101] = [
      comment(9101, "reviewer", "Please split the migration out", "2025-01-02T09:00:00Z"),
    ];
    const stub = await startStubGithub(repo, { pageSize: 2 });
    const agent = `github:acme/${name}`;
    const done = await runImport(t.system.services, await start(`acme/${name}`), { github: github(stub) });
    // issue 2 has no comments (count 0): its comments are never asked for
    expect(stub.requests.some((r) => r.includes("/issues/2/comments"))).toBe(false);
    const rows = await stream(agent);
    const decided = rows.filter((r) => r.description.includes("drop Safari 14"));
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({
      description: `maintainer commented on issue #1 "Issue number 1" in acme/${name}: "We decided to drop Safari 14 support instead"`,
      createdAt: new Date("2025-01-02T10:00:00Z"),
    });
    const split = rows.find((r) => r.description.includes("split the migration"));
    expect(split?.description).toMatch(/^reviewer commented on pull request #101 "Pull request 101"/);
    expect(split?.createdAt).toEqual(new Date("2025-01-02T09:00:00Z"));
    expect(
      rows.some((r) => r.description.includes("Build passed") || r.description.includes("drive-by")),
    ).toBe(false);
    expect(done.counts).toMatchObject({ ignored: 2 });

    // Once: a re-run stores nothing, and the webhook delivering the same comment is a duplicate.
    const again = await runImport(t.system.services, await start(`acme/${name}`), {
      github: github(stub),
    });
    expect(again.counts.stored).toBe(0);
    const repository = { full_name: `acme/${name}`, name, owner: { login: "acme" }, html_url: "x" };
    const delivered = {
      action: "created",
      issue: repo.issues[0],
      comment: repo.comments[1][0],
      repository,
      sender: { login: "maintainer", type: "User" },
    };
    t.system.jobs.startWorkers();
    const id = uniq("comment");
    await deliver(t, { event: "issue_comment", id, body: JSON.stringify(delivered), secret: SECRET });
    const [row] = await waitForDeliveries(t, [id]);
    expect(row).toMatchObject({ status: "ignored", reason: expect.stringContaining("already") });
    expect((await stream(agent)).filter((r) => r.description.includes("drop Safari 14"))).toHaveLength(1);
    await stub.close();
  });

  it("keeps only what happened since --since", async () => {
    const { stub, full, agent } = await setup();
    const since = "2025-01-05T00:00:00Z";
    await runImport(t.system.services, await start(full, since), { github: github(stub) });
    const rows = await stream(agent);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(30);
    expect(rows.every((r) => r.createdAt >= new Date(since))).toBe(true);
    await stub.close();
  });
});

describe("import and webhooks write each event once", () => {
  it("a webhook delivering an imported event stores nothing; a push is cut to its new commits", async () => {
    const { stub, full, agent, repo } = await setup();
    const repository = {
      full_name: full,
      name: repo.name,
      owner: { login: "acme" },
      default_branch: "main",
      html_url: "x",
    };
    const [imported] = repo.commits;
    // A push delivered BEFORE the import, with one commit the import will also see and one it will not.
    const push = {
      ref: "refs/heads/main",
      before: "0".repeat(40),
      after: "f".repeat(40),
      created: false,
      deleted: false,
      forced: false,
      compare: "x",
      commits: [
        { id: imported?.sha, message: "Commit message 5", timestamp: "2025-01-06T06:00:00Z" },
        { id: "f".repeat(40), message: "Hotfix straight to main", timestamp: "2025-01-07T06:00:00Z" },
      ],
      head_commit: null,
      pusher: { name: "dev5" },
      sender: { login: "dev5", type: "User" },
      repository,
    };
    const pushId = uniq("push");
    // Deliveries are github.deliver jobs: workers run them (started here: earlier tests check pending importance).
    t.system.jobs.startWorkers();
    await deliver(t, { event: "push", id: pushId, body: JSON.stringify(push), secret: SECRET });
    await waitForDeliveries(t, [pushId]);
    expect(await stream(agent)).toHaveLength(1);

    const done = await runImport(t.system.services, await start(full), { github: github(stub) });
    expect(done.counts).toMatchObject({ stored: 29, duplicates: 1 });

    // The same issue opening and a push with the imported commit, delivered AFTER the import.
    const issue = repo.issues[0] as Record<string, unknown>;
    const opened = { action: "opened", issue, repository, sender: issue.user };
    const [openedId, pushId2] = [uniq("issue"), uniq("push")];
    await deliver(t, { event: "issues", id: openedId, body: JSON.stringify(opened), secret: SECRET });
    const later = {
      ...push,
      commits: [
        push.commits[0],
        { id: "e".repeat(40), message: "Later fix", timestamp: "2025-02-01T00:00:00Z" },
      ],
    };
    await deliver(t, { event: "push", id: pushId2, body: JSON.stringify(later), secret: SECRET });
    const rows = await waitForDeliveries(t, [openedId, pushId2]);
    expect(rows.find((r) => r.id === openedId)).toMatchObject({
      status: "ignored",
      reason: expect.stringContaining("already"),
    });
    expect(rows.find((r) => r.id === pushId2)).toMatchObject({ status: "processed" });
    const all = await stream(agent);
    expect(all).toHaveLength(31);
    const last = all.find((r) => r.description.includes("Later fix"));
    expect(last?.description).toMatch(/pushed 1 commit to main/);
    expect(last?.description).not.toContain("Commit message 5");
    const issueOpenings = await t.system.services.db
      .select()
      .from(memories)
      .where(
        and(eq(memories.agentId, agent), sql`${memories.description} LIKE 'reporter1 opened issue #1 %'`),
      );
    expect(issueOpenings).toHaveLength(1);
    await stub.close();
  });
});
