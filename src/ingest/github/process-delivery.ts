import { and, eq, inArray, sql } from "drizzle-orm";
import { type GithubDeliveryRow, githubDeliveries } from "../../db/schema";
import { NotFound } from "../../lib/errors";
import { afterCommit } from "../../memory/after-commit";
import type { IngestDeps } from "./deps";
import { describeEvent } from "./describe/index";
import { routeAgents } from "./route-agents";
import { storeEvent } from "./store-event";

export type ProcessOutcome =
  | { status: "processed"; agentIds: string[]; observations: number }
  | { status: "ignored"; reason: string }
  /** Already processed or ignored earlier: nothing was done (re-runs are harmless). */
  | { status: "skipped" };

const ALREADY_STORED =
  "already in every routed stream (stored by the repository import or an earlier delivery)";
const ERASED = "every agent it routes to was erased after it arrived";
const NO_AGENT = "no agent to route it to: the event has no repository or organization and no rule matches";

/**
 * Turns a stored delivery into observations in every routed agent's stream. The memories and
 * the status update commit in ONE transaction, under a row lock, so a crash never half-applies
 * and a re-run (retry, sweep, redelivery) never duplicates. Deliveries in `received` or `failed`
 * are processed; `processed` and `ignored` are final. On error the delivery is marked `failed`
 * with the reason and the error is rethrown for the caller's retry policy. Throws `NotFound` for
 * an unknown id. The payload is dropped once the delivery is final.
 */
export async function processDelivery(deps: IngestDeps, deliveryId: string): Promise<ProcessOutcome> {
  // createMemories announces its work itself; inside our transaction that would be before
  // commit (a job could look for rows not yet visible), so it is held and made after.
  const held = afterCommit(deps.announce);
  let outcome: ProcessOutcome;
  try {
    outcome = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(githubDeliveries)
        .where(eq(githubDeliveries.id, deliveryId))
        .for("update");
      if (!row) throw new NotFound(`GitHub delivery ${deliveryId} not found`, { deliveryId });
      if (row.status === "processed" || row.status === "ignored") return { status: "skipped" } as const;

      const memory = { ...deps, announce: held.announce, db: tx };
      const result = apply(row, deps);
      if (result.status === "ignored") {
        await finish(tx, deliveryId, {
          status: "ignored",
          at: deps.clock.now(),
          reason: result.reason,
          agentIds: result.agentIds,
        });
        return { status: "ignored", reason: result.reason } as const;
      }
      // Through the event keys: an event the repository import (or another delivery) already
      // stored in an agent's stream is not stored there again.
      let observations = 0;
      let erased = 0;
      for (const agentId of result.agentIds) {
        const stored = await storeEvent(memory, agentId, result.event, result.opts);
        if (stored.status === "stored") observations = Math.max(observations, stored.observations);
        if (stored.status === "erased") erased++;
      }
      if (observations === 0) {
        const reason = erased === result.agentIds.length ? ERASED : ALREADY_STORED;
        await finish(tx, deliveryId, {
          status: "ignored",
          at: deps.clock.now(),
          reason,
          agentIds: result.agentIds,
        });
        return { status: "ignored", reason } as const;
      }
      await finish(tx, deliveryId, {
        status: "processed",
        at: deps.clock.now(),
        agentIds: result.agentIds,
        observations,
      });
      return { status: "processed", agentIds: result.agentIds, observations } as const;
    });
  } catch (error) {
    if (!(error instanceof NotFound)) await markFailed(deps, deliveryId, error);
    throw error;
  }
  await held.flush();
  return outcome;
}

/** describe + route: whether the delivery becomes observations, and where (pure). */
function apply(row: GithubDeliveryRow, deps: IngestDeps) {
  const described = describeEvent(row.event, row.payload);
  const agentIds = routeAgents(deps.routes, row.payload);
  if (described.status === "ignored") {
    return { status: "ignored", reason: described.reason, agentIds } as const;
  }
  if (agentIds.length === 0) return { status: "ignored", reason: NO_AGENT, agentIds } as const;
  const event = { name: row.event, payload: row.payload };
  // The payload's own time when it has one, else when GitHub sent it to us.
  const opts = {
    fallbackTime: row.receivedAt.toISOString(),
    metadata: { deliveryId: row.id },
    horizon: row.erasureHorizon,
  };
  return { status: "observations", agentIds, event, opts } as const;
}

type Tx = Parameters<Parameters<IngestDeps["db"]["transaction"]>[0]>[0];

async function finish(
  tx: Tx,
  id: string,
  set: {
    status: "processed" | "ignored";
    at: Date;
    reason?: string;
    agentIds: string[];
    observations?: number;
  },
) {
  await tx
    .update(githubDeliveries)
    .set({
      status: set.status,
      reason: set.reason ?? null,
      agentIds: set.agentIds,
      observations: set.observations ?? 0,
      // Final: the observations (with deliveryId in their metadata) keep what mattered.
      payload: null,
      processedAt: set.at,
    })
    .where(eq(githubDeliveries.id, id));
}

const MAX_REASON = 500;

/** Records the failure; never overwrites a final status a concurrent run may have written. */
async function markFailed(deps: IngestDeps, id: string, error: unknown) {
  // A database error arrives wrapped ("Failed query: <the SQL>"); the cause says what went wrong.
  const root = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const message = root instanceof Error ? root.message : String(root);
  try {
    await deps.db
      .update(githubDeliveries)
      .set({
        status: "failed",
        reason: message.slice(0, MAX_REASON),
        attempts: sql`${githubDeliveries.attempts} + 1`,
        processedAt: deps.clock.now(),
      })
      .where(and(eq(githubDeliveries.id, id), inArray(githubDeliveries.status, ["received", "failed"])));
  } catch (recordError) {
    // The database may be the thing that failed; the delivery stays `received` for the sweep.
    deps.logger.warn("could not record a failed GitHub delivery", {
      deliveryId: id,
      error: String(recordError),
    });
  }
}
