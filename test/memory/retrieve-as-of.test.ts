import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { type RefMemory, referenceRanking } from "../support/reference-ranking";
import { startTestSystem, type TestSystem } from "../support/system";

// Recall as of a time (`asOf`, docs/adr/0033): a stream whose facts change — Alice's city twice,
// her car once, each newer version written with `supersedes` — and whose memories were retrieved
// (touched) later, asked at three times. At each, the answer must be the reference ranker's over
// the memories created by then, with a replacement written later not yet known (the old version
// current, unmarked), recency from the last access known before then, the present-state lift
// handing a superseded memory's place to a replacement that existed, and nothing touched.

const MODEL = "asof-3d";
const QUERY = [1, 0.2, 0];
const WEIGHTS = { recency: 1, importance: 1, relevance: 2 };
const DECAY = 0.99;

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

type Seed = { text: string; at: string; importance: number; vector: number[]; supersedes?: string };
const STREAM: Seed[] = [
  { text: "Alice lives in Paris", at: "2026-01-05T10:00:00.000Z", importance: 6, vector: [1, 0.1, 0] },
  { text: "Alice drives a red car", at: "2026-01-06T10:00:00.000Z", importance: 4, vector: [0, 0.3, 1] },
  {
    text: "The office coffee machine broke",
    at: "2026-01-07T09:00:00.000Z",
    importance: 2,
    vector: [0, 0.2, 1],
  },
  {
    text: "Alice moved to Berlin",
    at: "2026-02-10T10:00:00.000Z",
    importance: 5,
    vector: [0.8, 0.5, 0.2],
    supersedes: "Alice lives in Paris",
  },
  {
    text: "Bob plays chess on Sundays",
    at: "2026-02-11T10:00:00.000Z",
    importance: 3,
    vector: [0.1, 1, 0.3],
  },
  {
    text: "Alice sold the red car, now takes the tram",
    at: "2026-03-01T10:00:00.000Z",
    importance: 5,
    vector: [0.6, 0.6, 0.4],
    supersedes: "Alice drives a red car",
  },
  {
    text: "Alice moved on to Madrid",
    at: "2026-04-01T10:00:00.000Z",
    importance: 5,
    vector: [0.5, 0.5, 0.6],
    supersedes: "Alice moved to Berlin",
  },
];
/** The three times asked: between each update. */
const TIMES = ["2026-02-01T00:00:00.000Z", "2026-03-15T00:00:00.000Z", "2026-05-01T00:00:00.000Z"];

type Hit = {
  id: string;
  description: string;
  score: number;
  lastAccessedAt: string;
  supersededBy: string | null;
  validUntil: string | null;
  scores: { lift: number };
};

async function seed(agent: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const s of STREAM) {
    const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
      description: s.text,
      createdAt: s.at,
      importance: s.importance,
      embedding: s.vector,
      embeddingModel: MODEL,
      ...(s.supersedes ? { supersedes: [ids.get(s.supersedes)] } : {}),
    });
    expect(res.status).toBe(201);
    ids.set(s.text, ((await res.json()) as { id: string }).id);
  }
  return ids;
}

const ask = async (agent: string, body: object) =>
  t.call("POST", `/v1/agents/${agent}/retrieve`, {
    query: "Where does Alice live now?",
    queryEmbedding: QUERY,
    embeddingModel: MODEL,
    relevance: "vector",
    weights: WEIGHTS,
    decay: DECAY,
    recencyUnit: "hour",
    scaleFloors: false,
    collapseDuplicates: false,
    // The reference ranks by the formula and the version lift; the subject step has its own test.
    subjects: false,
    timeFilter: true,
    k: 10,
    ...body,
  });

async function stored(agent: string): Promise<Map<string, Hit>> {
  const res = await t.call("GET", `/v1/agents/${agent}/memories?limit=50`);
  const body = (await res.json()) as { memories: Hit[] };
  return new Map(body.memories.map((m) => [m.id, m]));
}

describe("retrieve asOf: the stream as it stood at a time", () => {
  it("ranks at three times as the reference does over what existed then, and touches nothing", async () => {
    const agent = uniq("asof");
    const ids = await seed(agent);
    // Used later: a retrieve on 2026-04-20 touches the three best; their lastAccessedAt moves past every T.
    const later = await ask(agent, { now: "2026-04-20T00:00:00.000Z", k: 3, touch: true });
    expect(later.status).toBe(200);
    const before = await stored(agent);
    const touched = [...before.values()].filter((m) => m.lastAccessedAt === "2026-04-20T00:00:00.000Z");
    expect(touched).toHaveLength(3);
    const ref: RefMemory[] = STREAM.map((s) => {
      const id = ids.get(s.text) as string;
      return {
        id,
        createdAt: s.at,
        lastAccessedAt: (before.get(id) as Hit).lastAccessedAt,
        importance: s.importance,
        vector: s.vector,
        supersededBy: before.get(id)?.supersededBy ?? null,
      };
    });
    const tops: string[] = [];
    for (const asOf of TIMES) {
      const res = await ask(agent, { asOf, touch: true });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        memories: Hit[];
        ranking: { lift: string | null; superseded: number };
      };
      const want = referenceRanking(ref, {
        now: asOf,
        asOf,
        decay: DECAY,
        weights: WEIGHTS,
        query: QUERY,
        lift: "newer",
      });
      expect(body.ranking.lift).toBe("newer");
      expect(
        body.memories.map((m) => m.id),
        asOf,
      ).toEqual(want.map((w) => w.id));
      for (const m of body.memories) {
        const w = want.find((x) => x.id === m.id);
        expect(m.score, `${asOf} ${m.description}`).toBeCloseTo(w?.score ?? Number.NaN, 6);
        expect(m.scores.lift, `${asOf} ${m.description}`).toBeCloseTo(w?.lift ?? Number.NaN, 6);
        // Every memory returned existed then, as it stood then.
        const created = Date.parse(STREAM.find((s) => s.text === m.description)?.at ?? "");
        expect(created).toBeLessThanOrEqual(Date.parse(asOf));
        expect(Date.parse(m.lastAccessedAt)).toBeLessThanOrEqual(Date.parse(asOf));
        if (m.validUntil !== null) expect(Date.parse(m.validUntil)).toBeLessThanOrEqual(Date.parse(asOf));
      }
      tops.push(body.memories.find((m) => /Alice (lives|moved)/.test(m.description))?.description ?? "");
    }
    // The first city at each time is the current one then: a replacement written later is not yet known.
    expect(tops).toEqual(["Alice lives in Paris", "Alice moved to Berlin", "Alice moved on to Madrid"]);
    // Nothing touched, nothing logged: access times as before, feedback on the retrieve a 404.
    expect([...(await stored(agent)).values()].map((m) => m.lastAccessedAt)).toEqual(
      [...before.values()].map((m) => m.lastAccessedAt),
    );
  });

  it("at the first time, Paris is current: unmarked, and not handed to Berlin", async () => {
    const agent = uniq("asof-mark");
    const ids = await seed(agent);
    const res = await ask(agent, { asOf: TIMES[0], format: "text" });
    const body = (await res.json()) as {
      memories: Hit[];
      ranking: { superseded: number };
      context: { text: string };
      retrievalId: string;
    };
    const paris = body.memories.find((m) => m.id === ids.get("Alice lives in Paris"));
    expect(paris).toMatchObject({ supersededBy: null, validUntil: null });
    expect(body.ranking.superseded).toBe(0);
    expect(body.context.text).not.toContain("[until");
    expect(body.memories.map((m) => m.description)).not.toContain("Alice moved to Berlin");
    // The same question now marks Paris as replaced (by Madrid, the newest along its chain).
    const now = (await (await ask(agent, { now: "2026-05-01T00:00:00.000Z", format: "text" })).json()) as {
      context: { text: string };
    };
    expect(now.context.text).toContain("[until");
    // The as-of retrieve was not logged: feedback on it is a 404.
    const fb = await t.call("POST", `/v1/agents/${agent}/feedback`, {
      retrievalId: body.retrievalId,
      used: [paris?.id],
    });
    expect(fb.status).toBe(404);
  });

  it("judges the time filter at asOf: 'yesterday' is the day before it", async () => {
    const agent = uniq("asof-window");
    await seed(agent);
    const res = await ask(agent, { asOf: "2026-02-11T12:00:00.000Z", query: "What happened yesterday?" });
    const body = (await res.json()) as { ranking: { timeWindow: { start: string; end: string } | null } };
    expect(body.ranking.timeWindow).toEqual({
      start: "2026-02-09T00:00:00.000Z",
      end: "2026-02-12T00:00:00.000Z",
    });
  });

  it("lists the memories created by then, each as it stood", async () => {
    const agent = uniq("asof-list");
    const ids = await seed(agent);
    const res = await t.call("GET", `/v1/agents/${agent}/memories?asOf=${TIMES[1]}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { memories: Hit[] };
    expect(body.memories.map((m) => m.description).sort()).toEqual(
      STREAM.filter((s) => s.at <= (TIMES[1] as string))
        .map((s) => s.text)
        .sort(),
    );
    const berlin = body.memories.find((m) => m.id === ids.get("Alice moved to Berlin"));
    const paris = body.memories.find((m) => m.id === ids.get("Alice lives in Paris"));
    expect(berlin).toMatchObject({ supersededBy: null, validUntil: null });
    expect(paris).toMatchObject({ supersededBy: ids.get("Alice moved to Berlin") });
  });

  it("rejects a bad asOf, asOf beside now, and asOf with mode fast, naming the field", async () => {
    const agent = uniq("asof-bad");
    const cases: [object, string][] = [
      [{ asOf: "last tuesday" }, "asOf"],
      [{ asOf: TIMES[0], now: TIMES[1] }, "now"],
      [{ asOf: TIMES[0], mode: "fast" }, "mode"],
    ];
    for (const [body, field] of cases) {
      const res = await ask(agent, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { error: { code: string; details?: { field?: string } } };
      expect(JSON.stringify(err)).toContain(field);
    }
    const list = await t.call("GET", `/v1/agents/${agent}/memories?asOf=yesterday`);
    expect(list.status).toBe(400);
    expect(JSON.stringify(await list.json())).toContain("asOf");
  });
});
