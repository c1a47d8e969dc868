import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import {
  type KnowledgeCase,
  KU_NOW,
  knowledgeUpdateCases,
  passes,
  vectorsOf,
} from "../support/knowledge-updates";
import { startTestSystem, type TestSystem, without } from "../support/system";

// Supersession as data in retrieval (docs/adr/0029): the 120 knowledge updates of
// recency-matters.test.ts, each newer version written with `supersedes` naming the one before.
// With no ranking fields, a present-state question ranks the newest version first whatever the
// vectors say (the similarity lift alone: 58 of 60), a past-state question still finds the
// superseded version it asks for, and the text context marks superseded memories.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    env: { EMBEDDING_PROVIDER: "offline" },
    announce: without("memories.pending"),
  });
});
afterAll(() => t.close());

const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;
type Stored = { id: string };

/** Stores the fillers and the oldest version, then each newer version superseding the one before. */
async function store(c: KnowledgeCase, vectors: Map<string, number[]>): Promise<string> {
  const agent = uniq("ku-sup");
  const item = (m: { text: string; at: string; importance: number }, supersedes?: string) => ({
    description: m.text,
    createdAt: m.at,
    importance: m.importance,
    embedding: vectors.get(m.text),
    ...(supersedes ? { supersedes: [supersedes] } : {}),
  });
  const [first, ...later] = c.versions;
  const res = await t.call("POST", `${path(agent)}/memories`, {
    memories: [item({ ...(first as KnowledgeCase["old"]), importance: 5 }), ...c.fillers.map((f) => item(f))],
  });
  expect(res.status).toBe(201);
  let previous = ((await res.json()) as { memories: Stored[] }).memories[0]?.id as string;
  for (const v of later) {
    const r = await t.call("POST", `${path(agent)}/memories`, item({ ...v, importance: 5 }, previous));
    expect(r.status).toBe(201);
    previous = ((await r.json()) as Stored).id;
  }
  return agent;
}

describe("supersession as data in retrieval", () => {
  it("ranks the newest version first for every current-state question and still finds old versions for past-state ones", async () => {
    const cases = knowledgeUpdateCases(120);
    const vectors = await vectorsOf(t.system.providers.embedder, cases);
    const agents = await Promise.all(cases.map((c) => store(c, vectors)));
    const passed = { current: 0, past: 0 };
    let marked = 0;
    for (const [i, c] of cases.entries()) {
      const res = await t.call("POST", `${path(agents[i] as string)}/retrieve`, {
        query: c.question,
        now: KU_NOW,
        k: 13,
        touch: false,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        memories: { description: string; supersededBy: string | null }[];
        ranking: { lift: string | null; superseded: number };
      };
      expect(body.ranking.lift).toBe(c.kind === "current" ? "newer" : null);
      if (c.kind === "past") expect(body.ranking.superseded).toBe(0);
      const order = body.memories.map((m) => m.description);
      if (passes(c, order)) passed[c.kind]++;
      if (c.kind === "current") {
        // Every older version returned is superseded and says so; the newest is not.
        const old = body.memories.filter((m) =>
          c.versions.slice(0, -1).some((v) => v.text === m.description),
        );
        expect(old.every((m) => m.supersededBy !== null)).toBe(true);
        if (body.ranking.superseded > 0) marked++;
      }
    }
    expect(passed.current).toBe(60);
    expect(passed.past / 60).toBeGreaterThanOrEqual(0.9);
    expect(marked).toBeGreaterThan(0);
  }, 300_000);

  it("marks a superseded memory in the text context, and a replacement outside the best 10 still comes first", async () => {
    const agent = uniq("ctx-sup");
    // 3-d vectors of a model of the test's own: the question along x; the old fact close to it,
    // fourteen unrelated memories a little less close (and unlike the old fact, so no similarity
    // lift), the replacement orthogonal to the question (by itself it ranks last).
    const model = uniq("sup-3d");
    const mem = (description: string, createdAt: string, embedding: number[], more = {}) => ({
      description,
      createdAt,
      importance: 5,
      embedding,
      embeddingModel: model,
      ...more,
    });
    const old = (await (
      await t.call(
        "POST",
        `${path(agent)}/memories`,
        mem("Alice lives in Paris", "2026-01-05T10:00:00Z", [0.8, 0.6, 0]),
      )
    ).json()) as Stored;
    const fillers = Array.from({ length: 14 }, (_, i) =>
      mem(
        `Bob ate lunch at cafe number ${i}`,
        `2026-02-${String(i + 1).padStart(2, "0")}T10:00:00Z`,
        [0.7, -0.7, 0.14],
      ),
    );
    expect((await t.call("POST", `${path(agent)}/memories`, { memories: fillers })).status).toBe(201);
    const next = (await (
      await t.call(
        "POST",
        `${path(agent)}/memories`,
        mem("Alice's new flat has a balcony over the Spree", "2026-03-02T09:00:00Z", [0, 0, 1], {
          supersedes: [old.id],
        }),
      )
    ).json()) as Stored;
    const ask = async (query: string) => {
      const res = await t.call("POST", `${path(agent)}/retrieve`, {
        query,
        queryEmbedding: [1, 0, 0],
        embeddingModel: model,
        now: KU_NOW,
        k: 5,
        format: "text",
        touch: false,
      });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        memories: { id: string }[];
        context: { text: string };
        ranking: { superseded: number; lift: string | null };
      };
    };
    const now = await ask("Where does Alice live?");
    const lines = now.context.text.split("\n");
    expect(now.ranking.lift).toBe("newer");
    expect(lines[1]).toContain("balcony over the Spree");
    expect(lines[2]).toContain(`Alice lives in Paris [until 2026-03-02 09:00 UTC, replaced by ${next.id}]`);
    expect(now.ranking.superseded).toBe(1);
    // A past-state question ranks by the formula alone: the old version first, the replacement not lifted.
    const past = await ask("Where did Alice live before?");
    expect(past.ranking.lift).toBeNull();
    expect(past.memories[0]?.id).toBe(old.id);
    expect(past.memories.map((m) => m.id)).not.toContain(next.id);
    expect(past.ranking.superseded).toBe(0);
  });
});
