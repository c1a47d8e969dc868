import { and, asc, eq, gt, isNotNull, type SQL } from "drizzle-orm";
import { agentSettings, retrievalLog } from "../../db/schema";
import type { MemoryDeps } from "../deps";
import { agentEpoch, assertNotErased } from "../erasure/guard";
import { resolveRanking } from "../retrieve/presets";
import { type FeedbackEvent, FIT_DEFAULTS, type FitGuardrails, fitWeights } from "./fit";
import { type LearnedState, NO_LEARNING } from "./state";

export type LearnDeps = Pick<MemoryDeps, "db" | "clock" | "learning"> & {
  /** The fit's guardrails; absent = FIT_DEFAULTS (tests narrow them). */
  guardrails?: FitGuardrails;
};

export type LearnOutcome =
  | { fitted: false; reason: string }
  | { fitted: true; adopted: boolean; events: number; gain: number };

/**
 * One `agent.learn` run: when learning is on for the agent and it has given feedback on
 * `minEvents` retrieves (then `refitEvery` more since the last fit), fits its weights to that
 * feedback (fit.ts) from the weights in force, and stores the fit; the weights are adopted only
 * when the guardrails allow. Idempotent: a run with no new feedback since the last fit does nothing.
 * An agent erased since the run began gets nothing stored: `AgentErased` (docs/adr/0027).
 */
export async function learnWeights(deps: LearnDeps, agentId: string): Promise<LearnOutcome> {
  const cfg = deps.learning;
  // Read before the feedback: a fit of an erased stream is never stored (docs/adr/0027).
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  const [row] = await deps.db
    .select({
      retrieval: agentSettings.retrieval,
      learnWeights: agentSettings.learnWeights,
      learned: agentSettings.learned,
    })
    .from(agentSettings)
    .where(eq(agentSettings.agentId, agentId));
  if (!(row?.learnWeights ?? cfg.enabled)) return { fitted: false, reason: "learning is off for the agent" };
  const learned = row?.learned ?? NO_LEARNING;
  const events = await feedbackEvents(deps, agentId, learned.resetAt);
  const due = learned.lastFit ? learned.lastFit.events + cfg.refitEvery : cfg.minEvents;
  if (events.length < Math.max(due, cfg.minEvents))
    return { fitted: false, reason: `${events.length} feedback events; the next fit at ${due}` };
  const current = learned.weights ?? resolveRanking({}, row?.retrieval ?? null).weights;
  const fit = fitWeights(events, current, { ...(deps.guardrails ?? FIT_DEFAULTS), minEvents: cfg.minEvents });
  const at = deps.clock.now().toISOString();
  const next: LearnedState = {
    ...learned,
    ...(fit.weights
      ? { weights: fit.weights, events: fit.events, heldOutGain: fit.heldOut.gain, fittedAt: at }
      : {}),
    lastFit: {
      at,
      events: fit.events,
      heldOutEvents: fit.heldOutEvents,
      heldOut: fit.heldOut,
      heldOutRecall: fit.heldOutRecall,
      proposed: fit.proposed,
      adopted: fit.weights !== null,
      refused: fit.refused ?? null,
    },
  };
  // Stored only if the agent was not erased since the epoch above (AgentErased otherwise: the
  // job ends without writing), in the write's transaction under the agent's lock.
  await deps.db.transaction(async (tx) => {
    await assertNotErased(tx, agentId, since);
    await tx
      .insert(agentSettings)
      .values({ agentId, learned: next, updatedAt: deps.clock.now() })
      .onConflictDoUpdate({ target: agentSettings.agentId, set: { learned: next } });
  });
  return { fitted: true, adopted: fit.weights !== null, events: fit.events, gain: fit.heldOut.gain };
}

/** The agent's retrieves with feedback (since a reset), oldest first. */
async function feedbackEvents(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  since: string | null,
): Promise<FeedbackEvent[]> {
  const where: SQL[] = [eq(retrievalLog.agentId, agentId), isNotNull(retrievalLog.feedbackAt)];
  if (since) where.push(gt(retrievalLog.feedbackAt, new Date(since)));
  const rows = await deps.db
    .select({ candidates: retrievalLog.candidates, used: retrievalLog.used, unused: retrievalLog.unused })
    .from(retrievalLog)
    .where(and(...where))
    .orderBy(asc(retrievalLog.createdAt));
  return rows.map((r) => ({ candidates: r.candidates, used: r.used ?? [], unused: r.unused }));
}
