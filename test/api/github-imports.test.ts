import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memories } from "../../src/db/schema";
import { uniq } from "../support/env";
import { fixtureRepo, type StubGithub, startStubGithub } from "../support/stub-github";
import { startTestSystem, type TestSystem } from "../support/system";

// POST /v1/agents/{agentId}/imports/github starts the same work as `npm run import:github` as a
// `github.import` job (here on the in-process queue); GET …/{id} follows it. GitHub is the stub.
const s = uniq("imports");
const name = uniq("repo");
const admin = { authorization: `Bearer admin-${s}` };
const tenant = { authorization: `Bearer tenant-${s}` };
let t: TestSystem;
let stub: StubGithub;
beforeAll(async () => {
  stub = await startStubGithub(fixtureRepo("acme", name, 3), { pageSize: 2 });
  t = await startTestSystem({
    env: {
      MEMSTREAM_API_KEYS: `admin-${s},tenant-${s}=tenant-${s}:`,
      GITHUB_API_URL: stub.url,
      GITHUB_TOKEN: "t",
    },
  });
  // Imports are `github.import` jobs: this process's in-process workers run them.
  t.system.jobs.startWorkers();
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

type Import = {
  id: string;
  status: string;
  counts: { stored: number; duplicates: number };
  agentIds: string[];
};
const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}/imports/github`;

async function finished(agent: string, id: string, headers = admin): Promise<Import> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.call("GET", `${path(agent)}/${id}`, undefined, headers);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Import;
    if (body.status === "succeeded" || body.status === "failed") return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("POST /v1/agents/{agentId}/imports/github", () => {
  it("queues the import, which fills the agent's stream; posting again stores nothing new", async () => {
    const agent = uniq("gh-api");
    const res = await t.call("POST", path(agent), { repo: `acme/${name}` }, admin);
    expect(res.status).toBe(202);
    const queued = (await res.json()) as Import;
    expect(queued).toMatchObject({ id: expect.stringMatching(/^imp_/), agentIds: [agent] });
    expect(await finished(agent, queued.id)).toMatchObject({ status: "succeeded", counts: { stored: 19 } });
    const rows = await t.system.services.db.select().from(memories).where(eq(memories.agentId, agent));
    expect(rows).toHaveLength(19);

    const again = (await (
      await t.call("POST", path(agent), { repo: `acme/${name}` }, admin)
    ).json()) as Import;
    expect(again.id).not.toBe(queued.id);
    expect(await finished(agent, again.id)).toMatchObject({ counts: { stored: 0, duplicates: 19 } });
  });

  it("rejects a malformed repository or date naming the field", async () => {
    for (const [body, field] of [
      [{ repo: "not a repo" }, "body.repo"],
      [{ repo: "acme/api", since: "yesterday" }, "body.since"],
      [{ repo: "acme/api", extra: 1 }, "body"],
    ] as const) {
      const res = await t.call("POST", path(uniq("bad")), body, admin);
      expect(res.status).toBe(400);
      const err = (await res.json()) as { error: { details: { field: string } } };
      expect(err.error.details.field).toBe(field);
    }
  });

  it("needs a key; a scoped key neither starts nor sees imports of agents outside its prefix", async () => {
    expect((await t.call("POST", path(uniq("x")), { repo: "acme/api" })).status).toBe(401);
    expect((await t.call("POST", path(`other-${s}`), { repo: "acme/api" }, tenant)).status).toBe(404);
    const agent = uniq("gh-api2");
    const started = (await (
      await t.call("POST", path(agent), { repo: `acme/${name}` }, admin)
    ).json()) as Import;
    await finished(agent, started.id);
    // The id is known, but it belongs to another agent: not found, never another tenant's data.
    expect((await t.call("GET", `${path(`tenant-${s}:bot`)}/${started.id}`, undefined, tenant)).status).toBe(
      404,
    );
    expect((await t.call("GET", `${path(agent)}/imp_00000000000000000000`, undefined, admin)).status).toBe(
      404,
    );
  });
});
