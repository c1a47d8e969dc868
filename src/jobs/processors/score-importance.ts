import { InvalidProviderAnswer } from "../../lib/errors";
import { type ClaimedRow, claimRows } from "../../memory/enrichment/claim";
import { markFailed, recordInvalid } from "../../memory/enrichment/fail";
import { errorText } from "../../memory/enrichment/fields";
import { storeScores } from "../../memory/enrichment/store";
import { recorded } from "../../memory/events";
import { recordEnrichmentLag } from "../../metrics";
import type { ImportanceScorer } from "../../providers/types";
import { isFinalAttempt, type Processor, type ProcessorContext } from "./types";

/** Unusable replies tolerated per memory before it is marked failed (counted in `attempts`). */
export const MAX_INVALID_REPLIES = 3;
/** Scoring calls in flight per job when the scorer makes one call per memory. */
const PER_MEMORY_CONCURRENCY = 4;

type Outcome = { row: ClaimedRow } & ({ score: number } | { error: unknown });

/**
 * `memories.score`: claims the chunk's rows still pending and scores them. Scores are stored as
 * they come (one paid call each: a worker killed mid-chunk loses only the calls in flight); a reply with no valid score counts against that memory alone (failed after
 * `MAX_INVALID_REPLIES`); any memory left pending makes the job throw, so the queue retries it
 * after a backoff and only the rows still pending are sent again.
 */
export const scoreImportance: Processor<"memories.score"> = async (payload, ctx) => {
  const rows = await claimRows(ctx, "importance", payload.items, ctx.job.jobId, ctx.claimMs);
  if (rows.length === 0) return { claimed: 0, scored: 0, invalid: 0 };
  const ref = (r: ClaimedRow) => ({ memoryId: r.id, revision: r.revision, agentId: r.agentId });
  let stored = 0;
  const outcomes = await scoreRows(ctx.importance, scorerFor(ctx), rows, async (scored, source) => {
    const ready = await storeScores(
      ctx.db,
      source,
      scored.map((o) => ({ ...ref(o.row), score: o.score })),
    );
    stored += ready.length;
    recordEnrichmentLag(
      ctx.metrics,
      "importance",
      ready.map((r) => r.writtenAt),
      ctx.clock.now(),
    );
  });
  // New importance may push an agent over its reflection threshold: an `agent.reflect` job if due.
  const agents = new Set(outcomes.flatMap((o) => ("score" in o ? [o.row.agentId] : [])));
  await ctx.announce([
    ...[...agents].map((agentId) => ({ kind: "importance.added" as const, agentId })),
    ...recorded([...agents].map((agentId) => ({ agentId }))),
  ]);
  const invalid = outcomes.flatMap((o) =>
    "error" in o && o.error instanceof InvalidProviderAnswer
      ? [{ ...ref(o.row), error: errorText(o.error) }]
      : [],
  );
  const stillInvalid = await recordInvalid(ctx.db, invalid, MAX_INVALID_REPLIES);
  const faults = outcomes.flatMap((o) =>
    "error" in o && !(o.error instanceof InvalidProviderAnswer) ? [o] : [],
  );

  const firstFault = faults[0];
  if (firstFault) {
    if (isFinalAttempt(ctx.job)) {
      const left = [
        ...faults.map((f) => ref(f.row)),
        ...invalid.filter((i) => stillInvalid.includes(i.memoryId)),
      ];
      await markFailed(ctx, "importance", left, ctx.job.jobId, errorText(firstFault.error));
    }
    throw firstFault.error;
  }
  if (stillInvalid.length > 0) {
    if (isFinalAttempt(ctx.job)) {
      for (const i of invalid.filter((x) => stillInvalid.includes(x.memoryId))) {
        await markFailed(ctx, "importance", [i], ctx.job.jobId, i.error);
      }
    }
    throw new Error(`importance: ${stillInvalid.length} replies had no valid score; retrying`);
  }
  return { claimed: rows.length, scored: stored, invalid: invalid.length };
};

/** What marks a score made offline because the agent's LLM budget was spent (`importanceSource`). */
export const BUDGET_SOURCE_PREFIX = "budget:";

/**
 * The scorer for one memory: the configured one, or — when it is the LLM and the agent's daily
 * budget is spent — the offline scorer, its scores marked `budget:offline:…`. Asked before each
 * call (one primary-key read), so a budget spent mid-chunk stops the LLM calls from that row on.
 */
function scorerFor(ctx: ProcessorContext): ((agentId: string) => Promise<ImportanceScorer>) | null {
  const { budget, offlineImportance, chat } = ctx;
  if (!chat) return null;
  const fallback: ImportanceScorer = {
    id: `${BUDGET_SOURCE_PREFIX}${offlineImportance.id}`,
    score: (texts, context) => offlineImportance.score(texts, context),
  };
  return async (agentId) => {
    if (!(await budget.exhausted(agentId))) return ctx.importance;
    budget.deferred("importance");
    return fallback;
  };
}

/**
 * One outcome per row. A scorer that calls a provider per memory is called per memory, so one
 * bad reply does not discard the others (each was a paid call), and each score is stored as soon
 * as it arrives; a batch scorer gets one call and one store.
 */
async function scoreRows(
  scorer: ImportanceScorer,
  pick: ((agentId: string) => Promise<ImportanceScorer>) | null,
  rows: ClaimedRow[],
  store: (scored: { row: ClaimedRow; score: number }[], source: string) => Promise<void>,
): Promise<Outcome[]> {
  const texts = rows.map((r) => r.description);
  const ctx = { agentId: rows[0]?.agentId ?? "" };
  if (!scorer.callPerDescription && !pick) {
    let scored: { row: ClaimedRow; score: number }[];
    try {
      const scores = await scorer.score(texts, ctx);
      scored = rows.map((row, i) => ({ row, score: scores[i] ?? 0 }));
    } catch (error) {
      return rows.map((row) => ({ row, error }));
    }
    await store(scored, scorer.id);
    return scored;
  }
  const out = new Array<Outcome>(rows.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const row = rows[i] as ClaimedRow;
      try {
        const s = pick ? await pick(row.agentId) : scorer;
        const [score] = await s.score([row.description], { agentId: row.agentId });
        out[i] = { row, score: score ?? 0 };
        await store([{ row, score: score ?? 0 }], s.id);
      } catch (error) {
        out[i] = { row, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PER_MEMORY_CONCURRENCY, rows.length) }, lane));
  return out;
}
