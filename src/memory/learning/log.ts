import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { Weights } from "../retrieve/ranking/components";
import { weightedSum } from "../retrieve/ranking/score";
import type { LoggedCandidate } from "./logged-candidate";

export type { LoggedCandidate };

/**
 * The retrieval log's bounds per agent: at most `max` retrieves (0 = no log: answers still carry
 * a retrievalId, but feedback on it is a 404) and none older than `maxAgeMs`. One retrieve in
 * `pruneEvery` (at random) prunes the agent's log back to its bounds, so between prunes it may
 * hold a few more (~`pruneEvery`); pruning on every retrieve read `max` index entries each time.
 */
export type RetrievalLogBounds = { max: number; maxAgeMs: number; pruneEvery?: number };

export const RETRIEVAL_LOG_DEFAULTS = { max: 1_000, maxAgeMs: 30 * 86_400_000, pruneEvery: 16 };

/**
 * Logs one retrieve's returned memories, in the retrieve's own transaction (one more statement;
 * nothing is read back), and now and then prunes the agent's log in the same statement.
 */
export async function logRetrieval(
  tx: Pick<Db, "execute">,
  entry: { agentId: string; id: string; candidates: LoggedCandidate[]; at: Date },
  bounds: RetrievalLogBounds,
  random: () => number = Math.random,
): Promise<void> {
  if (bounds.max <= 0) return;
  const insert = sql`INSERT INTO retrieval_log (agent_id, id, candidates, created_at)
    VALUES (${entry.agentId}, ${entry.id}, ${JSON.stringify(entry.candidates)}::jsonb, ${entry.at.toISOString()}::timestamptz)`;
  const prune = random() * (bounds.pruneEvery ?? RETRIEVAL_LOG_DEFAULTS.pruneEvery) < 1;
  await tx.execute(
    prune ? sql`WITH logged AS (${insert}) ${pruneSql(entry.agentId, entry.id, entry.at, bounds)}` : insert,
  );
}

/**
 * Deletes the agent's log entries past its bounds, all but the new entry `keep` and the `max − 1`
 * newest others. It reads the agent's newest `max` entries of the (agent_id, created_at) index.
 * It names the new entry rather than rely on not seeing it: beside the insert in one statement,
 * PostgreSQL's snapshot does not show it, but Citus runs the insert as a step of its own first,
 * and then it does.
 */
function pruneSql(agentId: string, keep: string, now: Date, bounds: RetrievalLogBounds) {
  const oldest = new Date(now.getTime() - bounds.maxAgeMs).toISOString();
  return sql`DELETE FROM retrieval_log WHERE agent_id = ${agentId} AND id <> ${keep} AND (created_at < ${oldest}::timestamptz
    OR created_at <= (SELECT created_at FROM retrieval_log WHERE agent_id = ${agentId} AND id <> ${keep}
      ORDER BY created_at DESC OFFSET ${bounds.max - 1} LIMIT 1))`;
}

/** Deletes every agent's log entries older than `maxAgeMs` (the sweep: agents that stopped retrieving). */
export async function expireRetrievalLog(
  db: Pick<Db, "execute">,
  now: Date,
  maxAgeMs: number,
): Promise<void> {
  await db.execute(
    sql`DELETE FROM retrieval_log WHERE created_at < ${new Date(now.getTime() - maxAgeMs).toISOString()}::timestamptz`,
  );
}

/** A candidate's score under weights `w` (the ranking module's sum, in its order). */
export const scoreUnder = (w: Weights, c: LoggedCandidate): number =>
  weightedSum(w, { recency: c[1], importance: c[2], relevance: c[3] });
