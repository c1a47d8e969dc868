import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { processDelivery } from "../../src/ingest/github/process-delivery";
import { receiveDelivery } from "../../src/ingest/github/receive-delivery";
import { importDocument } from "../../src/memory/documents/import-document";
import { eraseAgent } from "../../src/memory/erasure/erase-agent";
import { AgentErased } from "../../src/memory/erasure/guard";
import { learnWeights } from "../../src/memory/learning/learn";
import { retainAgent } from "../../src/memory/retention/retain";
import { child, example } from "../ingest/github/fixtures";
import { uniq } from "../support/env";
import { deliver, waitForDeliveries } from "../support/github";
import { fixtureRepo, type StubGithub, startStubGithub } from "../support/stub-github";
import { startTestSystem, type TestSystem } from "../support/system";
import { waitFor } from "./support";

// Erasure is final (docs/adr/0027): every job that writes to an agent, held at the point where it
// has read the stream (a provider call or a GitHub page held by the stubs, or the job's write
// waiting on the agent's lock while an erase is in flight), writes nothing once the agent is
// erased, and retrieve returns nothing. A write after the erase starts the next epoch.
const s = uniq("erasure");
const SECRET = `secret-${s}`;
const repo = `erase-${s}`;
const deliveryRepo = `erase-deliveries-${s}`;
const deliveryAgent = `erase-delivery-${s}`;
let t: TestSystem;
let gh: StubGithub;
beforeAll(async () => {
  gh = await startStubGithub(fixtureRepo("acme", repo, 3), { pageSize: 2 });
  t = await startTestSystem({
    env: {
      LLM_MODEL: "stub-chat",
      REFLECTION_THRESHOLD: "0",
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_ROUTES: `repo:acme/${deliveryRepo}=${deliveryAgent}`,
      GITHUB_API_URL: gh.url,
      GITHUB_TOKEN: "t",
    },
  });
  t.system.jobs.startWorkers();
});
afterAll(async () => {
  await t?.close();
  await gh?.close();
});

const db = () => t.system.services.db;
const idle = () => t.system.jobs.inProcess?.idle();
const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;

async function count(table: string, agent: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db(),
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE agent_id = ${agent}`,
  );
  return Number(row?.n ?? 0);
}

/** What retrieve answers for the agent (ids), over every kind. */
async function retrieved(agent: string): Promise<string[]> {
  const res = await t.call("POST", `${path(agent)}/retrieve`, { query: "deploy issue lesson note", k: 50 });
  expect(res.status).toBe(200);
  return ((await res.json()) as { memories: { id: string }[] }).memories.map((m) => m.id);
}

async function erase(agent: string): Promise<void> {
  expect((await t.call("DELETE", path(agent))).status).toBe(200);
}

async function post(agent: string, body: object): Promise<string> {
  const res = await t.call("POST", `${path(agent)}/memories`, body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Nothing of the agent is left: no row in any of its tables, retrieve answers nothing. */
async function expectGone(agent: string): Promise<void> {
  for (const table of ["memories", "memory_embeddings", "reflection_runs", "lesson_revisions", "outcomes"]) {
    expect({ table, n: await count(table, agent) }).toEqual({ table, n: 0 });
  }
  expect(await count("agent_settings", agent)).toBe(0);
  expect(await retrieved(agent)).toEqual([]);
}

/**
 * An erase that has deleted the stream and bumped the epoch but not committed: work started now
 * reads the old epoch and the old stream, and its write waits on the agent's lock until `commit`.
 */
async function heldErase(agent: string) {
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let inside = () => {};
  const erased = new Promise<void>((r) => (inside = r));
  const done = db().transaction(async (tx) => {
    await eraseAgent({ db: tx as never, clock: t.system.services.clock }, agent);
    inside();
    await gate;
  });
  await erased;
  return {
    async commit() {
      release();
      await done;
    },
  };
}

/** Resolves once some transaction waits for the agent's lock (a guarded write reached its guard). */
const writerWaits = (agent: string) =>
  waitFor(
    `a write to ${agent} waiting on the agent's lock`,
    async () => {
      const [row] = await queryRows<{ n: number }>(
        db(),
        sql`SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted
            AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(${`memstream.agent:${agent}`}, 0)`,
      );
      return Number(row?.n ?? 0) > 0;
    },
    60_000,
  );

describe("an erase while a job holds the agent's work", () => {
  it("memories.embed: the held vector is never stored", async () => {
    const agent = uniq("erase-embed");
    const held = t.stub.holdNextEmbedding(/held for embedding/);
    await post(agent, { description: "a deploy note held for embedding", importance: 3 });
    await held.arrived;
    await erase(agent);
    held.release();
    await idle();
    await expectGone(agent);
  });

  it("memories.score: the held score is never stored", async () => {
    const agent = uniq("erase-score");
    const held = t.stub.holdNextChat(/held for scoring/);
    await post(agent, { description: "a deploy note held for scoring", embedding: Array(64).fill(0.1) });
    await held.arrived;
    await erase(agent);
    held.release();
    await idle();
    await expectGone(agent);
  });

  it("agent.reflect: insights drawn from the erased stream are not stored; the next epoch is untouched", async () => {
    const agent = uniq("erase-reflect");
    expect((await t.call("PUT", `${path(agent)}/settings`, { reflectionThreshold: 10 })).status).toBe(200);
    t.stub.scriptChatWhen(/most salient high-level questions/, ["1. Why do deploys fail?"]);
    t.stub.scriptChatWhen(/high-level insights/, ["1. Deploys fail on Fridays (because of 1, 2)"]);
    const held = t.stub.holdNextChat(/high-level insights/);
    await post(agent, {
      memories: [
        { description: "the deploy failed on friday", importance: 8 },
        { description: "the deploy failed again on friday", importance: 8 },
      ],
    });
    await held.arrived;
    await erase(agent);
    const fresh = await post(agent, { description: "a note of the next epoch", importance: 1 });
    held.release();
    await idle();
    expect(await count("reflection_runs", agent)).toBe(0);
    const [kinds] = await queryRows<{ reflections: number; total: number }>(
      db(),
      sql`SELECT count(*) FILTER (WHERE kind = 'reflection')::int AS reflections, count(*)::int AS total
          FROM memories WHERE agent_id = ${agent}`,
    );
    expect(kinds).toEqual({ reflections: 0, total: 1 });
    expect(await retrieved(agent)).toEqual([fresh]);
  });

  it("outcomes.consolidate: the held lesson is never stored", async () => {
    const agent = uniq("erase-lesson");
    const held = t.stub.holdNextChat(/Turn the record below into a lesson/);
    const outcome = {
      task: "Deploy the billing service",
      taskType: "deploy",
      success: false,
      error: "port in use",
    };
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.call("POST", `${path(agent)}/outcomes`, { ...outcome, strategy: "restart" })).status,
      ).toBe(201);
    }
    await held.arrived;
    await erase(agent);
    held.release();
    await idle();
    await expectGone(agent);
  });

  it("agent.retain: a run whose agent is erased mid-way stops without recreating its settings", async () => {
    const agent = uniq("erase-retain");
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await post(agent, {
      memories: [1, 2, 3].map((i) => ({ description: `old ${i}`, importance: 2, createdAt: old })),
    });
    expect((await t.call("PUT", `${path(agent)}/settings`, { retention: { maxAgeDays: 1 } })).status).toBe(
      200,
    );
    const erasing = await heldErase(agent);
    const run = retainAgent(t.system.services, agent).then(
      () => null,
      (e: unknown) => e,
    );
    await writerWaits(agent);
    await erasing.commit();
    expect(await run).toBeInstanceOf(AgentErased);
    await expectGone(agent);
  });

  it("documents: an import the erase overtook while it was splitting writes nothing (409)", async () => {
    const agent = uniq("erase-doc");
    // The split (in a worker thread) held until the erase has committed.
    let arrive = () => {};
    const arrived = new Promise<void>((r) => (arrive = r));
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const text = {
      splitDocument: async (input: Parameters<typeof t.system.services.text.splitDocument>[0]) => {
        arrive();
        await gate;
        return t.system.services.text.splitDocument(input);
      },
    };
    const imported = importDocument({ ...t.system.services, text }, agent, {
      source: "runbook.md",
      content: "# Deploy\n\nRestart the billing service, then check the port.",
    }).then(
      () => null,
      (e: unknown) => e,
    );
    await arrived;
    await erase(agent);
    release();
    const error = await imported;
    expect(error).toBeInstanceOf(AgentErased);
    expect((error as AgentErased).code).toBe("conflict");
    expect(await count("documents", agent)).toBe(0);
    await expectGone(agent);
  });
});

describe("learning and the retrieval log", () => {
  const MODEL = "erase-learn-3d";
  const vec = (i: number) => [Math.cos(i / 2), Math.sin(i / 2), 0.1];

  /** 6 memories, and `n` retrieves with feedback that used the first memory returned. */
  async function withFeedback(agent: string, n: number): Promise<void> {
    const res = await t.call("POST", `${path(agent)}/memories`, {
      memories: Array.from({ length: 6 }, (_, i) => ({
        description: `learned memory ${i}`,
        importance: 1 + i,
        embedding: vec(i),
        embeddingModel: MODEL,
      })),
    });
    expect(res.status).toBe(201);
    for (let i = 0; i < n; i++) {
      const r = await t.call("POST", `${path(agent)}/retrieve`, {
        queryEmbedding: vec(i * 1.3),
        embeddingModel: MODEL,
        touch: false,
        k: 4,
      });
      const a = (await r.json()) as { retrievalId: string; memories: { id: string }[] };
      const fb = await t.call("POST", `${path(agent)}/feedback`, {
        retrievalId: a.retrievalId,
        used: [a.memories[0]?.id],
      });
      expect(fb.status).toBe(200);
    }
  }

  it("agent.learn: a fit of the erased stream's feedback is never stored", async () => {
    const agent = uniq("erase-learn");
    await withFeedback(agent, 6);
    expect(await count("retrieval_log", agent)).toBe(6);
    const learning = { enabled: true, minEvents: 4, refitEvery: 2 };
    const erasing = await heldErase(agent);
    // Reads the feedback of the old epoch (the erase has not committed), then its write waits.
    const run = learnWeights({ ...t.system.services, learning }, agent).then(
      () => null,
      (e: unknown) => e,
    );
    await writerWaits(agent);
    await erasing.commit();
    expect(await run).toBeInstanceOf(AgentErased);
    expect(await count("agent_settings", agent)).toBe(0);
    expect(await count("retrieval_log", agent)).toBe(0);
    await expectGone(agent);
    // Queued past the erase: nothing to fit, nothing stored.
    expect(await learnWeights({ ...t.system.services, learning }, agent)).toMatchObject({ fitted: false });
    expect(await count("agent_settings", agent)).toBe(0);
  });

  it("retrieve: one that waits on an erase in flight logs nothing for the erased agent", async () => {
    const agent = uniq("erase-retrieve-tx");
    await post(agent, {
      description: "a note the retrieve ranks",
      importance: 4,
      embedding: vec(1),
      embeddingModel: MODEL,
    });
    const erasing = await heldErase(agent);
    const answer = t.call("POST", `${path(agent)}/retrieve`, {
      queryEmbedding: vec(1),
      embeddingModel: MODEL,
      k: 5,
    });
    await writerWaits(agent);
    await erasing.commit();
    const res = await answer;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { retrievalId: string; memories: unknown[] };
    expect(body.memories).toEqual([]);
    expect(await count("retrieval_log", agent)).toBe(0);
    const fb = await t.call("POST", `${path(agent)}/feedback`, { retrievalId: body.retrievalId, used: [] });
    expect(fb.status).toBe(404);
  });

  it("retrieve: one the erase overtook while its query was embedded logs nothing", async () => {
    const agent = uniq("erase-retrieve-q");
    await post(agent, {
      description: "a deploy note before the erase",
      importance: 4,
      embedding: Array(64).fill(0.1),
    });
    const held = t.stub.holdNextEmbedding(/overtaken retrieve question/);
    const answer = t.call("POST", `${path(agent)}/retrieve`, {
      query: "the overtaken retrieve question",
      k: 5,
    });
    await held.arrived;
    await erase(agent);
    held.release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { memories: unknown[] }).memories).toEqual([]);
    expect(await count("retrieval_log", agent)).toBe(0);
    await expectGone(agent);
  });
});

describe("GitHub sources that arrived before the erase", () => {
  let issue = 5000;
  const issueEvent = () => {
    const payload = example("issues", "opened");
    child(payload, "repository").full_name = `acme/${deliveryRepo}`;
    issue += 1;
    Object.assign(child(payload, "issue"), { number: issue, id: issue });
    return payload;
  };

  it("github.deliver, queued: processed after the erase it stores nothing; a later delivery starts the next epoch", async () => {
    const id = `${s}-queued`;
    // Stored as the webhook route stores it, without the job (as if the queue had not run it yet).
    await receiveDelivery(t.system.services, { id, event: "issues", payload: issueEvent() });
    await erase(deliveryAgent);
    expect(await processDelivery(t.system.services, id)).toEqual({
      status: "ignored",
      reason: "every agent it routes to was erased after it arrived",
    });
    expect(await count("memories", deliveryAgent)).toBe(0);

    const later = `${s}-later`;
    const res = await deliver(t, {
      event: "issues",
      id: later,
      body: JSON.stringify(issueEvent()),
      secret: SECRET,
    });
    expect(res.status).toBe(202);
    const [row] = await waitForDeliveries(t, [later]);
    expect(row?.status).toBe("processed");
    expect(await retrieved(deliveryAgent)).toHaveLength(1);
    await erase(deliveryAgent);
  });

  it("github.deliver, in flight: its write waits for the erase and then stores nothing", async () => {
    const id = `${s}-inflight`;
    const erasing = await heldErase(deliveryAgent);
    const res = await deliver(t, { event: "issues", id, body: JSON.stringify(issueEvent()), secret: SECRET });
    expect(res.status).toBe(202);
    await writerWaits(deliveryAgent);
    await erasing.commit();
    const [row] = await waitForDeliveries(t, [id]);
    expect(row).toMatchObject({ status: "ignored", reason: expect.stringMatching(/erased/) });
    await expectGone(deliveryAgent);
  });

  type Import = { id: string; status: string; error: string | null; counts: { stored: number } };
  const imports = (agent: string) => `${path(agent)}/imports/github`;
  const finished = (agent: string, id: string) =>
    waitFor(`import ${id} finished`, async () => {
      const body = (await (await t.call("GET", `${imports(agent)}/${id}`)).json()) as Import;
      return body.status === "succeeded" || body.status === "failed" ? body : null;
    });

  it("github.import, before its first page: ends failed, writes nothing; asked again it starts afresh", async () => {
    const agent = uniq("erase-import-q");
    const held = gh.hold(new RegExp(`^/repos/acme/${repo}$`));
    const res = await t.call("POST", imports(agent), { repo: `acme/${repo}` });
    expect(res.status).toBe(202);
    const queued = (await res.json()) as Import;
    await held.arrived;
    await erase(agent);
    held.release();
    expect(await finished(agent, queued.id)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/erased/),
    });
    await expectGone(agent);

    const again = (await (await t.call("POST", imports(agent), { repo: `acme/${repo}` })).json()) as Import;
    expect(again.id).not.toBe(queued.id);
    expect(await finished(agent, again.id)).toMatchObject({ status: "succeeded", counts: { stored: 19 } });
  });

  it("github.import, between pages: the pages after the erase store nothing; the next epoch's memory stays alone", async () => {
    const agent = uniq("erase-import-p");
    const held = gh.hold(new RegExp(`^/repos/acme/${repo}/issues\\?.*page=2`));
    const res = await t.call("POST", imports(agent), { repo: `acme/${repo}` });
    const started = (await res.json()) as Import;
    await held.arrived;
    expect(await count("memories", agent)).toBeGreaterThan(0);
    await erase(agent);
    const fresh = await post(agent, { description: "a deploy note of the next epoch", importance: 2 });
    held.release();
    expect(await finished(agent, started.id)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/erased/),
    });
    await idle();
    expect(await count("memories", agent)).toBe(1);
    expect(await retrieved(agent)).toEqual([fresh]);
  });
});
