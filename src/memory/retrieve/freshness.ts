import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { FIELDS } from "../enrichment/fields";

/**
 * The freshness contract (docs/adr/0035): every retrieve says how many of the agent's memories
 * were not yet searchable by meaning (no vector: enrichment still pending) when it read the
 * stream, how old the oldest of them was, and how many it embedded itself for this ranking (read
 * your own writes). With `waitSearchableMs` it first waits, bounded, until every memory written
 * before it started has its vector.
 */
export type Freshness = {
  /** The agent's memories still waiting for a vector when the retrieve read the stream. */
  pending: number;
  /** Age of the oldest of them (ms since it was written, by the service's clock); null with none. */
  oldestPendingMs: number | null;
  /** Of the candidates among them, how many this retrieve embedded itself (read your own writes). */
  embeddedInline: number;
  /** With waitSearchableMs: how long it waited, and whether everything written before it became searchable. */
  waited?: { ms: number; complete: boolean };
};

/** How often the wait looks again: short against the bound, long against a query's cost (one index probe). */
const POLL_MS = 25;

/** The SQL condition of a memory still waiting for its vector (alias `memories`). */
export const pendingSql = sql`${FIELDS.embedding.status} = 'pending'`;

/**
 * Waits until no memory of `agentId` written at or before `before` (inserted_at, the service's
 * clock) is waiting for a vector, or `ms` elapsed; polls one probe of the partial pending index.
 */
export async function waitSearchable(
  db: Db,
  agentId: string,
  before: Date,
  ms: number,
): Promise<{ ms: number; complete: boolean }> {
  const start = performance.now();
  for (;;) {
    const [row] = await queryRows<{ waiting: boolean }>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM memories WHERE agent_id = ${agentId} AND ${pendingSql}
        AND inserted_at <= ${before.toISOString()}::timestamptz) AS waiting`,
    );
    const elapsed = performance.now() - start;
    if (!row?.waiting) return { ms: Math.round(elapsed), complete: true };
    if (elapsed >= ms) return { ms: Math.round(elapsed), complete: false };
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, ms - elapsed)));
  }
}
