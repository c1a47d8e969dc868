import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import type { Db } from "../../db/client";
import { sqlState } from "../../db/sql-state";
import { Invalid, RetrieveTimeout } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { memoryAsOf, untilAsOf } from "../as-of";
import { withCitationStatus } from "../citation-status";
import { purgeExpired } from "../deletion/purge-expired";
import type { MemoryDeps } from "../deps";
import { resolveEmbeddingModel } from "../embedding-model";
import { erasedSinceUnderLock, lockAgentShared } from "../erasure/guard";
import type { MemoryFilters } from "../filters";
import { type LoggedCandidate, logRetrieval } from "../learning/log";
import { LIMITS } from "../limits";
import { type MemoryRecord, toMemory } from "../serialize";
import { countExpansions, EXPAND_DEFAULTS, expandSummaries } from "../tiers/expand";
import { tierKinds } from "../tiers/kinds";
import { readCompaction } from "../tiers/settings";
import type { MemoryKind, ScoredMemory, Tier } from "../types";
import { embedPending, readAgentState, readFastState } from "./agent-state";
import { consultCache } from "./cache";
import { type Ranked, runPlan, type ScoredRow } from "./execute";
import type { FastThresholds } from "./fast-thresholds";
import { type Focus, liftOf, timeFocus } from "./focus";
import { type Freshness, waitSearchable } from "./freshness";
import { type HnswIndex, hnswIndexState } from "./hnsw-index";
import { queryLanguage, type RankingRules } from "./language";
import { type Plan, plan, type RetrieveMode, type Statement } from "./plan";
import { type PresetName, type ResolvedRanking, resolveRanking } from "./presets";
import { type RecencyUnit, scaleFloorsOf, type Weights } from "./ranking/components";
import { collapseDuplicates, nextPool, poolSize } from "./ranking/duplicates";
import { flattened } from "./ranking/expanded";
import type { LexicalQuery, QueryVector, RelevanceKind } from "./ranking/relevance/kinds";
import { liftSubjects, questionSubjects, SUBJECT_LIFT } from "./ranking/subjects";
import type { VersionLift } from "./ranking/versions";
import { narrowed, type RankParams, type RankSection } from "./statements/params";
import { TIME_WINDOW_SLACK_S, timeWindow } from "./time-window";
import { touchMemories } from "./touch";

export type RetrieveInput = {
  /** The agent's current situation, embedded with the configured embedder. */
  query?: string;
  /** A vector the caller already has (skips embedding the query). */
  queryEmbedding?: number[];
  /** Model of `queryEmbedding`; defaults to the configured embedder's model. */
  embeddingModel?: string;
  k?: number;
  /** A named ranking (presets.ts); fields given beside it override its values. */
  preset?: PresetName;
  weights?: Partial<Weights>;
  decay?: number;
  /** The time unit `decay` applies per. */
  recencyUnit?: RecencyUnit;
  /** ISO 8601 "now" for recency (simulated time); defaults to the clock. */
  now?: string;
  /**
   * Recall as of this time (ISO 8601; ../as-of.ts): only memories created at or before it,
   * supersession and last accesses as they stood then, the version lift and the time filter
   * judged at it (it is the retrieve's now); nothing touched or logged. Not with `now` or mode fast.
   */
  asOf?: string;
  /** Mark returned memories as accessed now (the paper's behaviour). */
  touch?: boolean;
  kinds?: MemoryFilters["kinds"];
  filters?: Omit<MemoryFilters, "kinds">;
  /** `exact` ranks by the formula; `fast` runs the threshold search over indexes (approximate); `auto` = exact (plan.ts). */
  mode?: RetrieveMode;
  /** `vector` (default, the paper's), `lexical` (BM25 of `query`) or `hybrid` (both fused). */
  relevance?: RelevanceKind;
  /**
   * Rank in sections (e.g. lessons, then reflections, then observations): each memory goes to the
   * section naming its kind (a section without kinds takes every kind no section names), each keeps
   * its own top k (default: `k`). Answers section by section; exact mode only; not with `kinds`.
   */
  sections?: RetrieveSection[];
  /** α of hybrid and contextual relevance (share of the vector part). */
  vectorShare?: number;
  /** Whether a time expression in `query` ("last June") limits the candidates to that window. */
  timeFilter?: boolean;
  /** Floor the scaled ranges of recency and importance (presets.ts). */
  scaleFloors?: boolean;
  /** Lift versions of a fact among the best by the question's time focus (presets.ts). */
  versions?: boolean;
  /** Duplicates take one place in the top k (presets.ts, ranking/duplicates.ts). */
  collapseDuplicates?: boolean;
  /**
   * Wait up to this many ms (≤ LIMITS.maxWaitSearchableMs) until every memory of the agent written
   * before the retrieve has its vector (freshness.ts); then rank whatever the wait reached.
   */
  waitSearchableMs?: number;
  /**
   * The tiers ranked (docs/adr/0044): `recent` (every kind but summaries) and `summary`; absent =
   * both. The archive is reached through `expand`, or listed (list-memories.ts).
   */
  tiers?: Exclude<Tier, "archive">[];
  /**
   * Each summary that ranks carries its archived members best first (`expanded`, tiers/expand.ts):
   * `true` = EXPAND_DEFAULTS.perSummary each, a number = that many. With `touch`, an expansion
   * counts as an access, and a member expanded the agent's `promoteAfter` times is promoted back.
   */
  expand?: boolean | number;
  /**
   * The answer's summaries replaced by their members (`flattened`): the top k of the ranked
   * memories and the expanded members together, each member marked `expandedFrom`.
   */
  flatten?: boolean;
};

export type RetrieveSection = { kinds?: MemoryKind[]; k?: number };

/** The createdAt window a time expression in the query limited the candidates to (ISO, [start, end)). */
export type AppliedTimeWindow = { start: string; end: string } | null;

/**
 * What ranked a retrieve: the values in force, the time window applied, and the statement that
 * ran (plan.ts) with the reason the planner gave.
 */
export type RankingReport = ResolvedRanking & {
  timeWindow: AppliedTimeWindow;
  /** The question's time focus (focus.ts). */
  focus: Focus;
  /** The versions lifted (ranking/versions.ts); null when none were. */
  lift: VersionLift | null;
  /** Memories returned that rank below their replacement (supersession, ranking/versions.ts). */
  superseded: number;
  plan: Statement;
  planReason: string;
  /** How the ranking ran as a rank profile's phases (docs/adr/0032). */
  phases: RankPhases;
  /** The query's language and which word rules (time focus, time filter) ran for it (language.ts). */
  rules: RankingRules;
};

/** A step applied to the first phase's best, in order (docs/adr/0032). */
export type RankStep = "neighbours" | "versions" | "subjects" | "duplicates";

/**
 * The rank profile as it ran: where the formula's candidates came from (the whole stream, or
 * seeds from the indexes: how many each list contributes at most), how many memories the
 * formula scored, and the steps after it: contextual relevance's neighbour mixing, the version
 * lift, duplicate collapse.
 */
export type RankPhases = {
  first: "stream" | "indexes";
  seeds: { vector: number; lexical: number; recent: number; far: number; vectorFrom: "hnsw" | "scan" } | null;
  scored: number;
  steps: RankStep[];
};

/**
 * The ranked memories, which path ranked them (`exact` or the approximate `fast`) and the
 * ranking in force; `candidates` is how many memories the ranking scored (for the metrics, not
 * part of the API answer).
 */
export type RetrieveResult = {
  /** Names this retrieve in the retrieval log, for feedback (src/memory/learning). */
  retrievalId: string;
  memories: ScoredMemory[];
  mode: "exact" | "fast" | "phased";
  ranking: RankingReport;
  /** What was not yet searchable when it ranked (freshness.ts). */
  freshness: Freshness;
  candidates: number;
  /** When the retrieve that ranked this answer ran; present only on an answer from the result cache. */
  cachedAt?: string;
};

/** Defaults of the non-ranking fields; ranking defaults come from presets.ts and the agent. */
export const RETRIEVE_DEFAULTS = {
  k: 10,
  touch: true,
  mode: "auto",
} as const;

/**
 * Read your own writes: up to `max` of the candidate set's newest memories still waiting for a
 * vector are embedded inline (the offline embedder takes ~30 ms a sentence), within `timeoutMs`;
 * past either bound they keep relevance 0 until the pipeline embeds them. max 0 turns it off.
 */
export const FRESH_DEFAULTS = { max: 8, timeoutMs: 500 };

type Row = MemoryRecord & ScoredRow & { duplicates?: number; sSubject?: number };

/**
 * A cached answer, as of now: its retrievalId is the retrieve that ranked it (nothing new is
 * logged); `touch` marks its memories accessed now, as a ranked answer would (a touch only raises
 * memories already in it, so the top k it names stays the top k); the pending memories' age grows.
 */
async function fromCache(
  deps: MemoryDeps,
  agentId: string,
  input: RetrieveInput,
  result: RetrieveResult,
  ageMs: number,
): Promise<RetrieveResult> {
  const touch = !input.asOf && (input.touch ?? RETRIEVE_DEFAULTS.touch);
  const touched =
    touch && result.memories.length > 0
      ? await touchMemories(
          deps.db,
          agentId,
          result.memories.map((m) => m.id),
          input.now ? new Date(input.now) : deps.clock.now(),
        )
      : null;
  const oldest = result.freshness.oldestPendingMs;
  return {
    ...result,
    memories: touched
      ? result.memories.map((m) => ({ ...m, lastAccessedAt: touched.get(m.id) ?? m.lastAccessedAt }))
      : result.memories,
    freshness: { ...result.freshness, oldestPendingMs: oldest === null ? null : oldest + ageMs },
    cachedAt: new Date(deps.clock.now().getTime() - ageMs).toISOString(),
  };
}

/**
 * Ranks the agent's memories by weighted, min-max scaled recency, importance and relevance
 * (Park et al. 2023), in Postgres, and touches what it returns. With the result cache on for the
 * agent (a TTL in its settings or the deployment's), an identical retrieve within the TTL whose
 * agent has not changed since is answered from the cache (cache.ts).
 */
export async function retrieve(
  deps: MemoryDeps,
  agentId: string,
  input: RetrieveInput,
): Promise<RetrieveResult> {
  const k = input.k ?? RETRIEVE_DEFAULTS.k;
  const asOf = asOfOf(input);
  const sections = input.sections && rankSections(input, k);
  // Sections rank the union of their kinds (every kind when one section takes the rest).
  const kinds = sections
    ? sections.some((s) => s.kinds === null)
      ? undefined
      : (sections.flatMap((s) => s.kinds ?? []) as MemoryKind[])
    : tierKinds(input.kinds, input.tiers);
  // As of a time, memories created after it are not candidates (an `until`, so every statement cuts there).
  const filters = { ...input.filters, kinds, until: untilAsOf(input.filters?.until, asOf) };
  const fresh = deps.retrieval.fresh;
  // Expired memories are deleted before anything is read: no statement below can rank one.
  await purgeExpired(deps, agentId, deps.clock.now());
  const waited = await waitFor(deps, agentId, input.waitSearchableMs);
  // The stream's size only matters to unfiltered, unsectioned requests: the planner's gate for the
  // threshold statement, and parallel workers for fused relevance over a large stream (plan.ts).
  const agent = await readAgentState(deps.db, agentId, filters, fresh.max, {
    countStream: !sections && !narrowed({ filters, timeWindow: null }),
    estimateLarge: Boolean(input.query?.trim()),
    learn: deps.learning.enabled,
  });
  // The result cache, under the token this statement read after the purge and before the ranking:
  // a write while it ranks changes the token, so the answer stored below is never served after it.
  const cached = consultCache(deps.retrieval.cache, agentId, input, agent.cache, deps.clock.now());
  // Only this function stores answers, each a RetrieveResult (the store holds objects).
  if (cached?.hit)
    return fromCache(deps, agentId, input, cached.hit.result as RetrieveResult, cached.hit.ageMs);
  const ranking = withQueryText(resolveRanking(input, agent.ranking, agent.learned), input);
  const lexical = lexicalQuery(input, ranking);
  // Lexical relevance never needs the query embedded, so the embedder is not called.
  const vectorRelevance = lexical?.kind !== "lexical" && (input.queryEmbedding || input.query?.trim());
  const [query, freshVectors] = await Promise.all([
    vectorRelevance ? queryVector(deps, input) : null,
    vectorRelevance && usesEmbedder(deps, input)
      ? embedPending(deps.embedder, agent.pending, fresh.timeoutMs)
      : [],
  ]);
  const now = asOf ?? (input.now ? new Date(input.now) : deps.clock.now());
  // The word rules read English only (language.ts): elsewhere the formula alone ranks.
  const language = queryLanguage(input.query);
  const rules: RankingRules = {
    language,
    focus: language === "en",
    timeFilter: ranking.timeFilter && language === "en",
    subjects: ranking.subjects && language === "en" && !sections,
  };
  const subjects = rules.subjects ? questionSubjects(input.query) : [];
  const focus = rules.focus ? timeFocus(input.query) : "none";
  // Versions need a vector per memory to compare, and are not a sectioned ranking's.
  const lift = ranking.versions && query && !sections ? liftOf(focus) : undefined;
  const params: RankParams = {
    agentId,
    filters,
    timeWindow: queryTimeWindow(rules.timeFilter, input.query, now),
    query,
    fresh: freshVectors.filter(
      (v) => v.dimensions === query?.dimensions && query.model === deps.embedder.modelId,
    ),
    lexical,
    now,
    asOf,
    decay: ranking.decay,
    recencyUnit: ranking.recencyUnit,
    weights: ranking.weights,
    floors: ranking.scaleFloors ? scaleFloorsOf(ranking.decay) : undefined,
    lift,
    k,
    // Asking about the past changes nothing.
    touch: asOf ? false : (input.touch ?? RETRIEVE_DEFAULTS.touch),
    sections,
  };
  const mode = input.mode ?? RETRIEVE_DEFAULTS.mode;
  const thresholds = deps.retrieval.fast;
  const chosen = plan(
    { ...params, mode },
    {
      small: agent.smallStream,
      large: agent.largeStream,
      fast: mode === "fast" ? await readFastState(deps.db, agentId, query, thresholds) : undefined,
      index: mode === "auto" && query ? await phasedIndex(deps.db, query, agent, thresholds) : undefined,
      rows: agent.rowsEstimate,
    },
    thresholds,
  );
  // Sections keep every copy: each section's top k is short, and a copy in another kind is another section's.
  const collapse = ranking.collapseDuplicates && !sections;
  const second: SecondPhase = { collapse, subjects, subjectLift: SUBJECT_LIFT * ranking.weights.relevance };
  const retrievalId = newId("ret");
  // Ranking, touch and the log are statements in one transaction: a statement that modifies data
  // never gets parallel workers, and readers still see all of the touch or none of it.
  //
  // The transaction shares the agent's lock first (docs/adr/0027): no erase commits between the
  // ranking and the log, and one that committed since `readAgentState` read the epoch (while the
  // query was embedded, say) makes the retrieve log and touch nothing, so no retrieval_log entry
  // ever outlives its agent's erase. The answer is still given; feedback on its id is a 404.
  const timeoutMs = deps.retrieval.timeoutMs;
  const { rows, ran, reason } = await deps.db
    .transaction(async (tx) => {
      // Sent together: the bound is set before the lock is asked for.
      await Promise.all([boundTransaction(tx, timeoutMs), lockAgentShared(tx, agentId)]);
      const [erased, ranked] = await Promise.all([
        erasedSinceUnderLock(tx, agentId, { epoch: agent.epoch }),
        collapse || subjects.length > 0
          ? rankPool(tx, chosen, params, second)
          : runPlan<Row>(tx, chosen, params),
      ]);
      // As of a time nothing is logged either: feedback is about what the agent used now.
      if (erased || asOf) return ranked;
      // Sent together: the connection pipelines them, so the log costs no round trip of its own
      // when the memories are touched.
      const [, touched] = await Promise.all([
        logRetrieval(
          tx,
          { agentId, id: retrievalId, candidates: loggedCandidates(ranked), at: deps.clock.now() },
          deps.retrieval.log,
        ),
        params.touch
          ? touchMemories(
              tx,
              agentId,
              ranked.rows.map((r) => r.id),
              params.now,
            )
          : null,
      ]);
      if (!touched) return ranked;
      return {
        ...ranked,
        rows: ranked.rows.map((r) => ({ ...r, lastAccessedAt: touched.get(r.id) ?? r.lastAccessedAt })),
      };
    })
    .catch((err: unknown) => {
      throw timedOut(err) ? new RetrieveTimeout(timeoutMs) : err;
    });
  const memories = rows.map((r) => ({
    ...(asOf ? memoryAsOf(toMemory(r), asOf) : toMemory(r)),
    score: Number(r.score),
    scores: {
      recency: Number(r.sRecency),
      importance: Number(r.sImportance),
      relevance: Number(r.sRelevance),
      lift: Number(r.sLift ?? 0),
      subject: r.sSubject ?? 0,
      // The raw relevance is a cosine only for vector relevance (the fused kinds' is a mix of scaled parts).
      similarity: ranking.relevance === "vector" && r.rawRelevance != null ? Number(r.rawRelevance) : null,
    },
    duplicates: r.duplicates ?? 0,
    ...(r.section === undefined ? {} : { section: Number(r.section) }),
  }));
  // The fast path takes its candidates from indexes and has no time window (filters are a 400
  // there; a default time filter is dropped instead, and the answer says no window applied).
  const window = ran.statement === "fast" ? null : params.timeWindow;
  // The lift runs in the full and phased statements' tail only (statements/select.ts).
  const lifted = lift && (ran.statement === "full" || ran.statement === "phased") ? lift : null;
  const scored = Number(rows[0]?.candidates ?? 0);
  const oldest = agent.unsearchable.oldest;
  const freshness: Freshness = {
    pending: agent.unsearchable.count,
    oldestPendingMs: oldest ? Math.max(0, deps.clock.now().getTime() - oldest.getTime()) : null,
    embeddedInline: params.fresh?.length ?? 0,
    ...(waited ? { waited } : {}),
  };
  const result: RetrieveResult = {
    retrievalId,
    freshness,
    memories: await withExpansion(
      deps,
      agentId,
      input,
      query,
      params.touch ? params.now : null,
      await withCitationStatus(deps.db, agentId, memories),
    ),
    mode: ran.statement === "fast" || ran.statement === "phased" ? ran.statement : "exact",
    ranking: {
      ...ranking,
      timeWindow: window ? { start: window.start.toISOString(), end: window.end.toISOString() } : null,
      focus,
      lift: lifted,
      superseded: rows.filter((r) => r.superseded === true).length,
      plan: ran.statement,
      planReason: reason,
      rules,
      phases: phasesOf(ran, scored, [
        ...(params.lexical?.kind === "contextual" ? (["neighbours"] as const) : []),
        ...(lifted ? (["versions"] as const) : []),
        ...(subjects.length > 0 ? (["subjects"] as const) : []),
        ...(collapse ? (["duplicates"] as const) : []),
      ]),
    },
    candidates: scored,
  };
  cached?.store(result);
  return result;
}

/** The phases a plan ran (RankPhases): the phased plan's seeds from indexes, else the stream. */
function phasesOf(ran: Plan, scored: number, steps: RankStep[]): RankPhases {
  if (ran.statement === "phased") {
    const s = ran.sizes;
    return {
      first: "indexes",
      seeds: {
        vector: s.vector,
        lexical: s.lexical,
        recent: s.recent,
        far: s.far,
        vectorFrom: ran.index ? "hnsw" : "scan",
      },
      scored,
      steps,
    };
  }
  // The fast search reads its candidates from indexes in rounds; every other statement from the stream.
  return { first: ran.statement === "fast" ? "indexes" : "stream", seeds: null, scored, steps };
}

/** The steps on the pool the statement ranked: the subject lift, then duplicate collapse. */
type SecondPhase = { collapse: boolean; subjects: string[]; subjectLift: number };

/**
 * The top k after the steps on the pool (docs/adr/0032): the plan ranks the best poolSize(k)
 * exactly, the memories starting with a name the question gives are lifted among them
 * (ranking/subjects.ts), and copies are folded (ranking/duplicates.ts). Should folding leave
 * fewer than k while more memories remain (a stream holding more copies of one memory than the
 * pool), the pool grows (nextPool) and the plan runs again, in the same transaction: rare, costs
 * a second statement, and never gives a partial answer.
 */
async function rankPool(
  tx: Pick<Db, "execute">,
  chosen: Plan,
  params: RankParams,
  steps: SecondPhase,
): Promise<Ranked<Row> & { pool: Row[] }> {
  for (let pool = poolSize(params.k); ; ) {
    const ranked = await runPlan<Row>(tx, chosen, { ...params, k: pool });
    const rows = liftSubjects(ranked.rows, steps.subjects, steps.subjectLift);
    if (!steps.collapse) return { ...ranked, rows: rows.slice(0, params.k), pool: ranked.rows };
    const collapsed = collapseDuplicates(rows, params.k, pool);
    if (collapsed.complete) return { ...ranked, rows: collapsed.rows, pool: ranked.rows };
    pool = nextPool(pool, collapsed.distinct, params.k);
  }
}

/**
 * The HNSW index the phased statement seeds from, or null for a top-N scan of the agent's
 * vectors: the index walk is filtered by agent, so it pays only for a stream of the fast path's
 * size (MEMSTREAM_FAST_MIN_STREAM) holding its share of the index (MEMSTREAM_FAST_MIN_SHARE);
 * below either, a scan of the agent's vectors is faster or the filtered walk finds too few of
 * them (fast-thresholds.ts). The stream's size is the planner's estimate: never analyzed, a scan.
 */
async function phasedIndex(
  db: Db,
  query: QueryVector,
  agent: { smallStream: boolean; rowsEstimate: number | null },
  t: FastThresholds,
): Promise<HnswIndex | null> {
  const rows = agent.rowsEstimate ?? 0;
  if (agent.smallStream || rows < t.minStream) return null;
  const { index, tuples } = await hnswIndexState(db, query.model, query.dimensions);
  if (!index) return null;
  return rows >= t.minShare * tuples ? index : null;
}

/** The bounded wait for searchability (freshness.ts), when asked for; a 400 past the limit. */
async function waitFor(deps: MemoryDeps, agentId: string, ms: number | undefined) {
  if (ms === undefined || ms === 0) return undefined;
  if (!(ms > 0 && ms <= LIMITS.maxWaitSearchableMs)) {
    throw new Invalid(`waitSearchableMs must be between 0 and ${LIMITS.maxWaitSearchableMs}`, {
      field: "waitSearchableMs",
    });
  }
  return waitSearchable(deps.db, agentId, deps.clock.now(), ms);
}

/** `asOf` as a date, or undefined; a 400 beside `now` (asOf is the now) or with mode fast (no cut in the search). */
function asOfOf(input: RetrieveInput): Date | undefined {
  if (input.asOf === undefined) return undefined;
  if (input.now !== undefined) {
    throw new Invalid("asOf is the retrieve's now: give asOf or now, not both", { field: "now" });
  }
  if (input.mode === "fast") {
    throw new Invalid("mode fast does not support asOf; use exact or auto", { field: "mode" });
  }
  return new Date(input.asOf);
}

/** Statement and lock timeout for the rest of the transaction. */
async function boundTransaction(tx: Pick<Db, "execute">, ms: number): Promise<void> {
  const v = `${Math.trunc(ms)}ms`;
  await tx.execute(
    sql`SELECT set_config('statement_timeout', ${v}, true), set_config('lock_timeout', ${v}, true)`,
  );
}

/** PostgreSQL cancelled the statement for its timeout (57014) or its lock wait (55P03). */
function timedOut(err: unknown): boolean {
  const code = sqlState(err);
  return code === "57014" || code === "55P03";
}

/** A ranked row as the retrieval log keeps it: its id and scaled components. */
const logged = (r: ScoredRow): LoggedCandidate => [
  r.id,
  Number(r.sRecency),
  Number(r.sImportance),
  Number(r.sRelevance),
];
/** One ranked below the returned k: marked 0. */
const loggedBelow = (r: ScoredRow): LoggedCandidate => [
  r.id,
  Number(r.sRecency),
  Number(r.sImportance),
  Number(r.sRelevance),
  0,
];

/**
 * What the log keeps of a retrieve: the memories returned, then the rest of the pool the
 * statement ranked (marked 0), so feedback can name one found below the cut and a fit can learn
 * to lift it (docs/adr/0025).
 */
function loggedCandidates(ranked: Ranked<Row> & { pool?: Row[] }): LoggedCandidate[] {
  const returned = new Set(ranked.rows.map((r) => r.id));
  const below = (ranked.pool ?? []).filter((r) => !returned.has(r.id));
  return [...ranked.rows.map(logged), ...below.map(loggedBelow)];
}

/** Sections as the ranking SQL takes them; a kind named twice, or two catch-alls, is a 400. */
function rankSections(input: RetrieveInput, k: number): RankSection[] {
  if (input.kinds)
    throw new Invalid("kinds and sections exclude each other; use sections[].kinds", { field: "kinds" });
  const seen = new Map<string, number>();
  let rest = -1;
  return (input.sections ?? []).map((s, i) => {
    const kinds = s.kinds && s.kinds.length > 0 ? [...new Set(s.kinds)] : null;
    if (kinds === null) {
      if (rest >= 0) {
        throw new Invalid(`sections ${rest} and ${i} both take every other kind`, {
          field: `sections.${i}.kinds`,
        });
      }
      rest = i;
    }
    for (const kind of kinds ?? []) {
      const earlier = seen.get(kind);
      if (earlier !== undefined) {
        throw new Invalid(`kind ${kind} is in sections ${earlier} and ${i}`, {
          field: `sections.${i}.kinds`,
        });
      }
      seen.set(kind, i);
    }
    return { kinds, k: s.k ?? k };
  });
}

/** The window a time expression in the query names, widened by the slack; null without one. */
function queryTimeWindow(on: boolean, query: string | undefined, now: Date): RankParams["timeWindow"] {
  const w = on && query ? timeWindow(query, now) : null;
  if (!w) return null;
  return {
    start: new Date((w.start - TIME_WINDOW_SLACK_S) * 1000),
    end: new Date((w.end + TIME_WINDOW_SLACK_S) * 1000),
  };
}

/**
 * Lexical and hybrid relevance need the query's text. When a default (the agent's or the
 * preset's) asks for them and the request has no text (only a vector, or no query at all), the
 * request ranks with vector relevance, and the response says so; asked for explicitly, it is a 400.
 */
function withQueryText(ranking: ResolvedRanking, input: RetrieveInput): ResolvedRanking {
  const hasText = input.query !== undefined && input.query.trim() !== "";
  if (ranking.relevance === "vector" || hasText || ranking.source.relevance === "request") return ranking;
  return { ...ranking, relevance: "vector" };
}

/** The query text for lexical or hybrid relevance, which need it; undefined for `vector`. */
function lexicalQuery(input: RetrieveInput, ranking: ResolvedRanking): LexicalQuery | undefined {
  const kind = ranking.relevance;
  if (kind === "vector") return undefined;
  if (input.query === undefined || input.query.trim() === "") {
    throw new Invalid(`relevance ${kind} needs the query text in query`, { field: "query" });
  }
  return { kind, text: input.query, vectorShare: ranking.vectorShare };
}

/** Whether the query vector is the configured embedder's (fresh vectors are that model's). */
const usesEmbedder = (deps: MemoryDeps, input: RetrieveInput) =>
  (input.embeddingModel ?? deps.embedder.modelId) === deps.embedder.modelId;

async function queryVector(deps: MemoryDeps, input: RetrieveInput): Promise<RankParams["query"]> {
  if (input.queryEmbedding) {
    const model = resolveEmbeddingModel(deps, input.queryEmbedding, input.embeddingModel, "queryEmbedding");
    return { vector: pgvector.toSql(input.queryEmbedding), model, dimensions: input.queryEmbedding.length };
  }
  if (input.query === undefined || input.query.trim() === "") return null;
  if (input.embeddingModel && input.embeddingModel !== deps.embedder.modelId) {
    throw new Invalid(
      `embeddingModel ${input.embeddingModel} is not the configured model (${deps.embedder.modelId}); pass queryEmbedding computed with it`,
      { field: "embeddingModel" },
    );
  }
  const [vector] = await deps.embedder.embed([input.query]);
  if (!vector) throw new Error("embedder returned no vector for the query");
  return { vector: pgvector.toSql(vector), model: deps.embedder.modelId, dimensions: vector.length };
}

/**
 * Summaries among `memories` get their archived members (tiers/expand.ts) when the retrieve asked
 * to `expand`; with a touch (`touchedAt`), the expansion is counted and due members promoted.
 */
async function withExpansion(
  deps: MemoryDeps,
  agentId: string,
  input: RetrieveInput,
  query: QueryVector | null,
  touchedAt: Date | null,
  memories: ScoredMemory[],
): Promise<ScoredMemory[]> {
  if (!input.expand && !input.flatten) return memories;
  const perSummary =
    typeof input.expand === "number"
      ? input.expand
      : input.flatten
        ? EXPAND_DEFAULTS.max
        : EXPAND_DEFAULTS.perSummary;
  const summaries = memories.filter((m) => m.kind === "summary").map((m) => m.id);
  if (summaries.length === 0) return memories;
  const members = await expandSummaries(deps.db, agentId, summaries, query, perSummary, input.query);
  const out = input.flatten
    ? flattened(memories, members, input.k ?? RETRIEVE_DEFAULTS.k)
    : memories.map((m) => (m.kind === "summary" ? { ...m, expanded: members.get(m.id) ?? [] } : m));
  if (touchedAt) {
    // What the answer gives: every expanded member, or those a flattened answer kept.
    const ids = input.flatten
      ? out.filter((m) => m.expandedFrom).map((m) => m.id)
      : [...members.values()].flat().map((m) => m.id);
    const settings = await readCompaction(deps.db, agentId);
    await countExpansions(deps.db, agentId, ids, touchedAt, settings.promoteAfter);
  }
  return out;
}
