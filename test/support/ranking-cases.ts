import { sql } from "drizzle-orm";
import fc from "fast-check";
import pgvector from "pgvector";
import type { Db } from "../../src/db/client";
import { scaleFloorsOf } from "../../src/memory/retrieve/ranking/components";
import type { RankParams, RankSection } from "../../src/memory/retrieve/statements/params";
import type { RefMemory, RefOptions } from "./reference-ranking";

/**
 * Random streams and requests for the ranking agreement test: small streams on coarse grids so
 * that ties are common (equal access times, importance, vectors, words), with pending importance,
 * missing vectors, vectors of another model and vectors embedded at retrieve time, every
 * relevance kind, filters, time windows and sections, and depths small enough that the pruning
 * statements prune.
 */

/** Words that are their own English stem (the test checks it), and stop words. */
export const VOCAB = ["cat", "dog", "fish", "bird", "tree", "moon", "star", "lamp", "boat", "road"];
export const STOP = ["the", "and", "of"];
const KINDS = ["observation", "reflection", "lesson"] as const;
const UNITS = { minute: 60, hour: 3_600, day: 86_400, week: 604_800 } as const;
const BASE = Date.parse("2026-01-01T00:00:00Z");

/** A vector on a small integer grid (exact dot products and norms in float4), never zero. */
const gridVector = fc
  .tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 }))
  .filter((v) => v.some((x) => x !== 0));

type GenVector = { stored: number[] } | { other: number[] } | { fresh: number[] } | null;

/**
 * A memory. `top`: importance up to it (a few levels give each level many memories); `span`:
 * creation and access times within it (steps); `vectors`: where vectors are drawn from. Coarse
 * values make exact ties (the same components) common, so the tie rule is tested at the cut.
 */
const memoryOf = (top: number, span: number, vectors: fc.Arbitrary<number[]>) =>
  fc.record({
    kind: fc.constantFrom(...KINDS),
    created: fc.integer({ min: 0, max: span }),
    accessedAfter: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: span })),
    // Pending importance one time in 4.
    importance: fc.option(fc.integer({ min: 1, max: top }), { freq: 4 }),
    vector: fc.oneof(
      { weight: 6, arbitrary: vectors.map((v): GenVector => ({ stored: v })) },
      { weight: 1, arbitrary: fc.constant<GenVector>(null) },
      { weight: 1, arbitrary: vectors.map((v): GenVector => ({ other: v })) },
      { weight: 1, arbitrary: vectors.map((v): GenVector => ({ fresh: v })) },
    ),
    words: fc.array(fc.constantFrom(...VOCAB, ...STOP), { minLength: 1, maxLength: 6 }),
    // Asks one time in 4 (windowed relevance's question form): a question mark at the end, once
    // quoted; one time in 8 a question mark that is not at the end (does not ask).
    asks: fc.constantFrom("", "", "", "", "", "?", '?"', "?."),
    tag: fc.constantFrom("a", "b", null),
    // Superseded one time in 3, by a memory written after it (1-6 places later, when there is one).
    replacedAfter: fc.option(fc.integer({ min: 1, max: 6 }), { freq: 2 }),
  });

const weight = fc.constantFrom(0, 0.5, 1, 2.25, 3);
const positive = fc.constantFrom(0.5, 1, 2.25, 3);

/** `arb` one time in `n`, else null (fc.option's `freq` is the other way round). */
const sometimes = <T>(arb: fc.Arbitrary<T>, n: number) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

const sectionsArb = fc
  .tuple(fc.shuffledSubarray([...KINDS], { minLength: 1 }), fc.integer({ min: 1, max: 3 }), fc.boolean())
  .chain(([kinds, n, rest]) =>
    fc
      .tuple(
        ...Array.from({ length: Math.min(n, kinds.length) }, () => fc.integer({ min: 1, max: 12 })),
        fc.integer({ min: 1, max: 12 }),
      )
      .map((ks): RankSection[] => {
        const count = Math.min(n, kinds.length);
        const named = Array.from({ length: count }, (_, i) => ({
          kinds: kinds.filter((_, j) => j % count === i),
          k: ks[i] as number,
        }));
        return rest ? [...named, { kinds: null, k: ks[count] as number }] : named;
      }),
  );

const general = {
  stream: fc.array(memoryOf(10, 30, gridVector), { maxLength: 40 }),
  step: fc.constantFrom(60, 3_600, 86_400),
  unit: fc.constantFrom(...(Object.keys(UNITS) as (keyof typeof UNITS)[])),
  decay: fc.constantFrom(0.5, 0.5, 0.9, 0.99, 0.998, 1),
  // Sometimes long after every access: then recency is floored (e^-600) or near it for all.
  now: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 70 }) },
    fc.integer({ min: 100, max: 3_000 }),
  ),
  weights: fc.record({ recency: weight, importance: weight, relevance: weight }),
  relevance: fc.constantFrom("vector", "vector", "vector", "lexical", "hybrid", "contextual", "windowed"),
  vectorShare: fc.constantFrom(0, 0.6, 0.85, 1),
  // No query vector one time in 6.
  query: fc.option(gridVector, { freq: 6 }),
  text: fc.array(fc.constantFrom(...VOCAB, ...VOCAB, ...STOP), { minLength: 1, maxLength: 3 }),
  k: fc.oneof({ weight: 2, arbitrary: fc.integer({ min: 1, max: 4 }) }, fc.integer({ min: 1, max: 45 })),
  filters: fc.record(
    {
      kinds: fc.shuffledSubarray([...KINDS], { minLength: 1 }),
      since: fc.integer({ min: 0, max: 30 }),
      until: fc.integer({ min: 0, max: 30 }),
      metadata: fc.constantFrom("a", "b"),
    },
    { requiredKeys: [] },
  ),
  narrow: fc.constantFrom(false, false, false, true),
  window: sometimes(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 12 })), 5),
  sections: sometimes(sectionsArb, 3),
  listSize: fc.integer({ min: 1, max: 8 }),
  mostRelevant: fc.integer({ min: 1, max: 4 }),
  depth: fc.record({ relevance: fc.integer({ min: 1, max: 4 }), recImp: fc.integer({ min: 1, max: 8 }) }),
  scaleFloors: fc.boolean(),
  lift: sometimes(fc.constant<"newer">("newer"), 3),
  // Recall as of a time one time in 5 (the candidates cut there, recency's access as of it).
  asOf: sometimes(fc.integer({ min: 0, max: 30 }), 5),
};

/**
 * Half the cases are where the threshold, fused and fast statements prune: whole streams of a
 * dozen or more memories ranked by vector or fused relevance for a small k, with short lists, so the k-th memory is
 * often in none of them and a wrong bound shows.
 */
const pruning = {
  ...general,
  stream: fc.oneof(
    fc.array(memoryOf(4, 30, gridVector), { minLength: 12, maxLength: 60 }),
    fc.array(memoryOf(3, 4, fc.constantFrom([1, 0, 0], [1, 1, 0], [0, 1, 1], [-1, 0, 1])), {
      minLength: 12,
      maxLength: 60,
    }),
  ),
  // Fused relevance (the default's, pruned by the fused statement) one time in 2.
  relevance: fc.constantFrom("vector", "vector", "hybrid", "contextual"),
  query: gridVector,
  k: fc.integer({ min: 1, max: 5 }),
  narrow: fc.constant(false),
  window: fc.constant(null),
  sections: fc.constant(null),
  weights: fc.record({ recency: positive, importance: positive, relevance: positive }),
  listSize: fc.integer({ min: 1, max: 4 }),
  mostRelevant: fc.integer({ min: 1, max: 3 }),
  lift: fc.constant(null),
  asOf: fc.constant(null),
};

/**
 * A fifth of the cases lift versions for a present-state question over streams of 8 to 40
 * memories, many of them superseded (chains included), so replacements, chains that pass
 * non-candidates and the tie rule among superseded memories are exercised.
 */
const versions = {
  ...general,
  stream: fc.array(memoryOf(10, 30, gridVector), { minLength: 8, maxLength: 40 }),
  relevance: fc.constantFrom("vector", "vector", "hybrid", "contextual", "windowed"),
  query: gridVector,
  sections: fc.constant(null),
  lift: fc.constant<"newer">("newer"),
};

/**
 * A fifth of the cases rank by windowed relevance over streams large enough for the question
 * form (10 memories that ask and 10 that do not, with vectors): half the memories ask.
 */
const form = {
  ...general,
  stream: fc.array(
    memoryOf(10, 30, gridVector).chain((m) =>
      fc.constantFrom("", "?", "", '?")', "?.").map((asks) => ({ ...m, asks })),
    ),
    { minLength: 24, maxLength: 60 },
  ),
  relevance: fc.constant("windowed"),
  query: gridVector,
};

export const caseArb = fc.oneof(
  { weight: 2, arbitrary: fc.record(general) },
  { weight: 2, arbitrary: fc.record(pruning) },
  { weight: 1, arbitrary: fc.record(versions) },
  { weight: 1, arbitrary: fc.record(form) },
);

export type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** The case's stream stored for `agent` (vectors of `model`, and of `other` for the mismatches). */
export async function storeCase(
  db: Db,
  agent: string,
  c: Case,
  model: string,
  other: string,
): Promise<RefMemory[]> {
  const at = (steps: number) => new Date(BASE + steps * c.step * 1_000).toISOString();
  const idOf = (i: number) => `m${String(i).padStart(2, "0")}`;
  const mems = c.stream.map((m, i) => ({
    id: idOf(i),
    supersededBy:
      m.replacedAfter !== null && i + m.replacedAfter < c.stream.length ? idOf(i + m.replacedAfter) : null,
    kind: m.kind,
    createdAt: at(m.created),
    lastAccessedAt: at(m.created + m.accessedAfter),
    importance: m.importance,
    description: m.words.join(" ") + m.asks,
    metadata: m.tag ? { tag: m.tag } : {},
    vector: m.vector,
  }));
  if (mems.length === 0) return [];
  await db.execute(sql`INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at,
      importance, importance_status, embedding_status, metadata)
    VALUES ${sql.join(
      mems.map(
        (m) => sql`(${m.id}, ${agent}, ${m.kind}, ${m.description}, ${m.createdAt}::timestamptz,
          ${m.lastAccessedAt}::timestamptz, ${m.importance}::smallint, ${m.importance === null ? "pending" : "ready"},
          ${m.vector && "stored" in m.vector ? "ready" : "pending"}, ${JSON.stringify(m.metadata)}::jsonb)`,
      ),
      sql`, `,
    )}`);
  const replaced = mems.filter((m) => m.supersededBy !== null);
  if (replaced.length > 0) {
    await db.execute(sql`UPDATE memories m SET superseded_by = x.by, valid_until = m.created_at
      FROM (VALUES ${sql.join(
        replaced.map((m) => sql`(${m.id}, ${m.supersededBy})`),
        sql`, `,
      )}) AS x(id, by) WHERE m.agent_id = ${agent} AND m.id = x.id`);
  }
  const vectors = mems.flatMap((m) => {
    if (m.vector && "stored" in m.vector)
      return [sql`(${m.id}, ${agent}, ${model}, 3, ${pgvector.toSql(m.vector.stored)}::vector, 1)`];
    if (m.vector && "other" in m.vector)
      return [sql`(${m.id}, ${agent}, ${other}, 3, ${pgvector.toSql(m.vector.other)}::vector, 1)`];
    return [];
  });
  if (vectors.length > 0) {
    await db.execute(sql`INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
      VALUES ${sql.join(vectors, sql`, `)}`);
  }
  return mems.map((m) => ({
    id: m.id,
    kind: m.kind,
    createdAt: m.createdAt,
    lastAccessedAt: m.lastAccessedAt,
    importance: m.importance,
    description: m.description,
    metadata: m.metadata,
    supersededBy: m.supersededBy,
    // The reference sees the vector of the query's model: stored, or embedded at retrieve time.
    vector:
      m.vector && "stored" in m.vector
        ? m.vector.stored
        : m.vector && "fresh" in m.vector
          ? m.vector.fresh
          : null,
  }));
}

/** The statements' parameters for the case, and the reference's options for the same request. */
export function requestOf(c: Case, agent: string, model: string): { params: RankParams; ref: RefOptions } {
  const at = (steps: number) => new Date(BASE + steps * c.step * 1_000);
  const kind = c.relevance as RefOptions["relevance"] & string;
  // Lexical relevance never embeds the query (retrieve.ts), so it has no vector.
  const query = kind === "lexical" ? null : c.query;
  const text = c.text.join(" ");
  const fresh = c.stream.flatMap((m, i) =>
    m.vector && "fresh" in m.vector && query
      ? [{ id: `m${String(i).padStart(2, "0")}`, vector: pgvector.toSql(m.vector.fresh), dimensions: 3 }]
      : [],
  );
  const f = c.narrow ? c.filters : {};
  const sections = c.sections ?? undefined;
  // Sections rank the union of their kinds (every kind when one takes the rest), as retrieve does.
  const kinds = sections
    ? sections.some((s) => s.kinds === null)
      ? undefined
      : sections.flatMap((s) => s.kinds ?? [])
    : f.kinds;
  // As of a time, retrieve cuts the candidates with an `until` at it (the earlier one wins).
  const asOf = c.asOf == null ? undefined : at(c.asOf);
  const until = f.until === undefined ? undefined : at(f.until);
  const filters = {
    kinds: kinds as RankParams["filters"]["kinds"],
    since: f.since === undefined ? undefined : at(f.since).toISOString(),
    until: (asOf && (!until || until > asOf) ? asOf : until)?.toISOString(),
    metadata: f.metadata === undefined ? undefined : { tag: f.metadata },
  };
  const window = c.window ? { start: at(c.window[0]), end: at(c.window[0] + c.window[1]) } : null;
  // Versions are lifted with a query vector and without sections, as retrieve does.
  const lift = c.lift && query && !sections ? c.lift : undefined;
  const params: RankParams = {
    agentId: agent,
    filters,
    timeWindow: window,
    query: query ? { vector: pgvector.toSql(query), model, dimensions: 3 } : null,
    fresh,
    lexical: kind === "vector" ? undefined : { kind, text, vectorShare: c.vectorShare },
    now: asOf ?? at(c.now),
    asOf,
    decay: c.decay,
    recencyUnit: c.unit,
    weights: c.weights,
    floors: c.scaleFloors ? scaleFloorsOf(c.decay) : undefined,
    lift,
    k: c.k,
    touch: false,
    sections,
  };
  const ref: RefOptions = {
    now: at(c.now).toISOString(),
    decay: c.decay,
    unitSeconds: UNITS[c.unit],
    weights: c.weights,
    query,
    relevance: kind,
    text,
    vectorShare: c.vectorShare,
    filters: { ...filters, kinds: filters.kinds as string[] | undefined },
    timeWindow: window ? { start: window.start.toISOString(), end: window.end.toISOString() } : null,
    scaleFloors: c.scaleFloors,
    lift: lift ?? null,
    asOf: asOf?.toISOString() ?? null,
  };
  return { params, ref };
}
