import { and, eq, isNotNull, sql } from "drizzle-orm";
import { retrievalLog } from "../../db/schema";
import { Invalid, NotFound } from "../../lib/errors";
import type { MemoryDeps } from "../deps";
import type { LoggedCandidate } from "./log";
import { wasReturned } from "./logged-candidate";

export type FeedbackInput = {
  retrievalId: string;
  /**
   * Memories of the retrieve the agent used (e.g. its answer cited them): returned, or ranked
   * below the cut (found later, say by another retrieve) — what lets a fit lift what it missed.
   */
  used: string[];
  /** Memories it did not use; absent = every other memory the retrieve returned. */
  unused?: string[];
};

export type FeedbackResult = {
  retrievalId: string;
  used: number;
  unused: number;
  /** The agent's retrieves with feedback in its log, this one included. */
  events: number;
};

/**
 * Records which memories of one logged retrieve the agent used. The retrieve must be in this
 * agent's log (another agent's retrievalId is not found: the lookup is by agent and id), and
 * every id must be one it ranked: returned, or in the pool below the cut (the log keeps both). Feedback given again replaces the earlier one.
 */
export async function recordFeedback(
  deps: Pick<MemoryDeps, "db" | "clock" | "announce" | "learning">,
  agentId: string,
  input: FeedbackInput,
): Promise<FeedbackResult> {
  const result = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ candidates: retrievalLog.candidates })
      .from(retrievalLog)
      .where(and(eq(retrievalLog.agentId, agentId), eq(retrievalLog.id, input.retrievalId)))
      .for("update");
    if (!row) {
      throw new NotFound(
        `retrieval ${input.retrievalId} is not in agent ${agentId}'s retrieval log (unknown, another agent's, or past the log's bounds)`,
        { field: "retrievalId" },
      );
    }
    const ranked = new Set(row.candidates.map((c: LoggedCandidate) => c[0]));
    const returned = new Set(row.candidates.filter(wasReturned).map((c: LoggedCandidate) => c[0]));
    const used = checkIds(input.used, "used", ranked);
    const unused = input.unused === undefined ? null : checkIds(input.unused, "unused", ranked);
    const both = unused?.findIndex((id) => used.includes(id)) ?? -1;
    if (unused && both >= 0) {
      throw new Invalid(`memory ${unused[both]} is in both used and unused`, { field: `unused.${both}` });
    }
    await tx
      .update(retrievalLog)
      .set({ used, unused, feedbackAt: deps.clock.now() })
      .where(and(eq(retrievalLog.agentId, agentId), eq(retrievalLog.id, input.retrievalId)));
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(retrievalLog)
      .where(and(eq(retrievalLog.agentId, agentId), isNotNull(retrievalLog.feedbackAt)));
    return {
      retrievalId: input.retrievalId,
      used: used.length,
      unused: unused?.length ?? returned.size - used.filter((id) => returned.has(id)).length,
      events: count?.n ?? 0,
    };
  });
  // A fit once there is enough feedback, then one per `refitEvery` more (the job re-checks both
  // and whether learning is on for the agent).
  const { minEvents, refitEvery } = deps.learning;
  if (result.events >= minEvents && (result.events - minEvents) % refitEvery === 0)
    await deps.announce([{ kind: "feedback.given", agentId }]);
  return result;
}

/** The ids without repeats; one the retrieve did not rank (return, or rank below the cut) is a 400 naming it. */
function checkIds(ids: string[], field: string, ranked: Set<string>): string[] {
  const i = ids.findIndex((id) => !ranked.has(id));
  if (i >= 0) {
    throw new Invalid(
      `memory ${ids[i]} was not ranked by this retrieve (returned, or in the pool below the cut)`,
      {
        field: `${field}.${i}`,
      },
    );
  }
  return [...new Set(ids)];
}
