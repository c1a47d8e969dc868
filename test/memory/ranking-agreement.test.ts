import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, queryRows } from "../../src/db/client";
import { Invalid } from "../../src/lib/errors";
import { exactStatement, runPlan, type ScoredRow } from "../../src/memory/retrieve/execute";
import type { HnswIndex } from "../../src/memory/retrieve/hnsw-index";
import { type Plan, plan, type RetrieveMode, type StreamState } from "../../src/memory/retrieve/plan";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { caseArb, requestOf, STOP, storeCase, VOCAB } from "../support/ranking-cases";
import { formOf, type RefHit, referenceRanking, referenceSections } from "../support/reference-ranking";

// Every plan the planner can choose must rank a request as the README's formula does: each
// random stream and request is ranked by every statement the planner picks for it under every
// stream state and mode (full, sections, threshold, fused, fast and its fallback), with pruning
// depths small enough that the threshold, fused and fast statements prune (the fused statement's
// rows must also equal the full statement's bit for bit), and compared with the reference
// (test/support/reference-ranking.ts): the same top k (ties within float rounding may swap), the
// same scores and scaled components. AGREEMENT_RUNS sets the number of cases (default 80);
// FUZZ_SEED replays a run (printed on failure). scripts/ranking-mutants.ts checks that this test
// fails when any one statement's formula is perturbed.

const RUNS = Number(process.env.AGREEMENT_RUNS ?? 80);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** Scores agree to this (float4 vectors, pow() in C and in V8; scores are at most ~10). */
const TOL = 1e-6;
const MODEL = uniq("agree-3d");
const OTHER = uniq("agree-other-3d");
// The fast statement reads its relevance list through this index's expression, but the model has
// no index: PostgreSQL sorts the distances, so the list is exact and a disagreement is the
// statement's, not HNSW's approximation (which retrieve-fast.test.ts and the benches measure).
const INDEX: HnswIndex = { model: MODEL, dimensions: 3, storage: "vector" };
/** Thresholds 0: the fast search runs on these small streams. */
const SEARCH_ALWAYS = { minStream: 0, minShare: 0 };

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ url: TEST_DATABASE_URL, dataDir: "", poolSize: 2 });
  // The reference does not stem: its words must be their own English lexeme, its stop words none.
  const lexemes = await queryRows<{ w: string; v: string }>(
    database.db,
    sql`SELECT w, to_tsvector('english', w)::text AS v FROM unnest(string_to_array(${[...VOCAB, ...STOP].join(" ")}, ' ')) w`,
  );
  for (const { w, v } of lexemes) expect(v).toBe(VOCAB.includes(w) ? `'${w}':1` : "");
});
afterAll(() => database.close());

/** Every stream state the planner distinguishes, and the modes that reach each statement. */
const STATES: StreamState[] = [
  { small: true, large: false },
  { small: false, large: false },
  { small: false, large: true },
];
const MODES: RetrieveMode[] = ["exact", "fast"];

/** The distinct plans chosen for the request across states and modes (fast's 400s left out). */
function plansFor(params: Omit<Parameters<typeof plan>[0], "mode">): Plan[] {
  const plans = new Map<string, Plan>();
  for (const mode of MODES)
    for (const state of STATES) {
      const fast = { index: params.query ? INDEX : null, vectors: 1, indexed: 0 };
      try {
        const p = plan({ ...params, mode }, { ...state, fast }, SEARCH_ALWAYS);
        plans.set(`${p.statement}/${p.workers}`, p);
      } catch (err) {
        if (!(err instanceof Invalid)) throw err;
      }
    }
  return [...plans.values()];
}

/** Rows of one ranking against the reference's top `k` (exact ties at the cut go to the smaller ids). */
function expectAgreement(
  got: ScoredRow[],
  ranked: RefHit[],
  k: number,
  weights: Record<"recency" | "importance" | "relevance", number>,
  where: string,
  lifted = false,
): void {
  const want = ranked.slice(0, k);
  const byId = new Map(ranked.map((h) => [h.id, h]));
  expect(got.map((r) => r.id).length, where).toBe(want.length);
  got.forEach((r, i) => {
    const ref = byId.get(r.id);
    expect(ref, `${where}: ${r.id} is not a candidate`).toBeDefined();
    const close = (a: number, b: number, what: string) =>
      expect(Math.abs(a - b), `${where}: ${r.id} ${what} ${a} vs ${b}`).toBeLessThanOrEqual(TOL);
    close(Number(r.score), want[i]?.score ?? Number.NaN, `score at rank ${i + 1}`);
    close(Number(r.score), ref?.score ?? Number.NaN, "score");
    close(Number(r.sRecency), ref?.scores.recency ?? Number.NaN, "recency'");
    close(Number(r.sImportance), ref?.scores.importance ?? Number.NaN, "importance'");
    close(Number(r.sRelevance), ref?.scores.relevance ?? Number.NaN, "relevance'");
    close(Number(r.sLift ?? 0), ref?.lift ?? Number.NaN, "lift");
    // Ties are broken by id. With versions lifted, a lifted score is a copy of another row's, so
    // such ties are exact in both: they go as the reference orders them (superseded memories
    // after the others, then newest first).
    const next = got[i + 1];
    if (next && Number(next.score) === Number(r.score) && !lifted)
      expect(r.id < next.id, `${where}: tie order`).toBe(true);
    const nextRef = next && byId.get(next.id);
    if (next && lifted && ref && nextRef && ref.score === nextRef.score && (ref.lift > 0 || nextRef.lift > 0))
      expect(
        ranked.indexOf(ref) < ranked.indexOf(nextRef),
        `${where}: lifted tie order ${r.id} before ${next.id}`,
      ).toBe(true);
  });
  // A memory left out must not beat the k-th: the memories returned are the reference's, up to
  // near-ties at the cut; among memories with the very same components, the smaller ids.
  const kth = want[want.length - 1];
  const ids = new Set(got.map((r) => r.id));
  for (const h of want) {
    if (ids.has(h.id)) continue;
    expect(
      Math.abs(h.score - (kth?.score ?? 0)),
      `${where}: ${h.id} (${h.score}) left out`,
    ).toBeLessThanOrEqual(TOL);
  }
  // Ties at the cut go to the smaller ids. A tie is the same value on every weighted component
  // (up to 1e-12 of it: a component computed from the same raw value rounds alike in SQL and
  // here), so the same score in any float arithmetic. Different components that sum to the same
  // score are not checked: which one SQL puts first depends on rounding.
  const close = (x: number, y: number) => Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y));
  const tied = (a: RefHit, b: RefHit) =>
    (["recency", "importance", "relevance"] as const).every(
      (c) => weights[c] === 0 || close(a.scores[c], b.scores[c]),
    );
  for (const r of lifted ? [] : got) {
    const ref = byId.get(r.id) as RefHit;
    const smaller = ranked.find((h) => h.id < r.id && tied(h, ref) && !ids.has(h.id));
    expect(smaller?.id, `${where}: ${r.id} returned before the equal ${smaller?.id}`).toBeUndefined();
  }
}

const ran = new Map<string, number>();
/** Windowed cases whose stream had a question-form direction (the projection was checked). */
let withForm = 0;

describe("every plan ranks as the README's formula (reference implementation)", () => {
  it(`agrees on ${RUNS} random streams and requests`, async () => {
    const db = database.db;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const agent = uniq("agree");
        const memories = await storeCase(db, agent, c, MODEL, OTHER);
        const { params, ref } = requestOf(c, agent, MODEL);
        if (ref.relevance === "windowed" && ref.query && formOf(memories)) withForm++;
        for (const chosen of plansFor(params)) {
          const result = await db.transaction((tx) =>
            runPlan<ScoredRow>(tx, chosen, params, {
              listSize: c.listSize,
              mostRelevant: c.mostRelevant,
              depth: c.depth,
            }),
          );
          const label =
            result.ran.statement === chosen.statement
              ? chosen.statement
              : `${chosen.statement}→${result.ran.statement}`;
          ran.set(label, (ran.get(label) ?? 0) + 1);
          // The search has no time window (retrieve reports none applied).
          const o = result.ran.statement === "fast" ? { ...ref, timeWindow: null } : ref;
          if (params.sections) {
            const want = referenceSections(memories, o, params.sections);
            params.sections.forEach((s, i) => {
              const rows = result.rows.filter((r) => Number(r.section) === i);
              expectAgreement(rows, want[i] ?? [], s.k, params.weights, `${label} section ${i}`);
            });
          } else
            expectAgreement(
              result.rows,
              referenceRanking(memories, o),
              params.k,
              params.weights,
              label,
              Boolean(params.lift),
            );
          // The fused statement prunes what the full statement scores: the same rows, bit for bit.
          if (result.ran.statement === "fused") {
            const full = await db.transaction((tx) =>
              queryRows<ScoredRow>(
                tx,
                exactStatement({ statement: "full", reason: "", workers: false }, params),
              ),
            );
            const bits = (rows: ScoredRow[]) =>
              rows.map((r) => [r.id, r.score, r.sRecency, r.sImportance, r.sRelevance].map(String).join(" "));
            expect(bits(result.rows), "fused against full, bit for bit").toEqual(bits(full));
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // Every statement was checked, and the fast search answered by itself at least once.
    for (const s of ["full", "sections", "threshold", "fused", "fast"])
      expect(ran.get(s) ?? 0, s).toBeGreaterThan(0);
    // And windowed relevance was checked with the question form projected out.
    expect(withForm, "windowed cases with a question-form direction").toBeGreaterThan(0);
  }, 120_000);
});
