import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import type { MemoryRef } from "./catalog";

/** The memory fields enrichment fills in. */
export type EnrichedField = "importance" | "embedding";

/** A memory row a job has claimed, with what the provider needs. */
export type ClaimedRow = {
  id: string;
  agentId: string;
  revision: number;
  description: string;
  attempts: number;
};

/** Column names of one enriched field; fixed identifiers, never user input. */
export const col = (field: EnrichedField, suffix: "status" | "error" | "claimed_by" | "claimed_until") =>
  sql.raw(`${field}_${suffix}`);

/** `(VALUES (id, rev), ...)` of a chunk, for joins against memories. */
export function refValues(items: readonly MemoryRef[]): SQL {
  return sql`(VALUES ${sql.join(
    items.map((i) => sql`(${i.memoryId}::text, ${i.revision}::int)`),
    sql`, `,
  )}) AS x(id, rev)`;
}

/**
 * Claims the rows of a chunk still pending at the announced revision and not claimed by
 * another live job. Only claimed rows are sent to a provider, so overlapping jobs (a sweep
 * re-announcing queued work) never pay twice. `owner` is the job id: a retry of the same job,
 * or the same job taken over after its worker died, reclaims its rows at once.
 */
export async function claimRows(
  db: Db,
  field: EnrichedField,
  items: readonly MemoryRef[],
  owner: string,
  claimMs: number,
): Promise<ClaimedRow[]> {
  const by = col(field, "claimed_by");
  const until = col(field, "claimed_until");
  const rows = await queryRows<ClaimedRow>(
    db,
    sql`UPDATE memories m SET ${by} = ${owner}, ${until} = now() + make_interval(secs => ${claimMs / 1000}::float8)
        FROM ${refValues(items)}
        WHERE m.id = x.id AND m.revision = x.rev AND m.${col(field, "status")} = 'pending'
          AND (m.${until} IS NULL OR m.${until} < now() OR m.${by} = ${owner})
        RETURNING m.id, m.agent_id AS "agentId", m.revision, m.description, m.attempts`,
  );
  // Stable order: providers see the chunk in announcement order (and results map back by index).
  const order = new Map(items.map((i, n) => [i.memoryId, n]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * Marks rows `failed` with the reason, when a job has used up its attempts. Guarded by revision
 * and claim: a newer text, or another job now holding the row, is left alone.
 */
export async function markFailed(
  db: Db,
  field: EnrichedField,
  items: readonly MemoryRef[],
  owner: string,
  error: string,
): Promise<number> {
  if (items.length === 0) return 0;
  const by = col(field, "claimed_by");
  const until = col(field, "claimed_until");
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE memories m SET ${col(field, "status")} = 'failed', ${col(field, "error")} = ${error},
          attempts = m.attempts + 1, ${by} = NULL, ${until} = NULL
        FROM ${refValues(items)}
        WHERE m.id = x.id AND m.revision = x.rev AND m.${col(field, "status")} = 'pending'
          AND (m.${by} IS NULL OR m.${by} = ${owner} OR m.${until} < now())
        RETURNING m.id`,
  );
  return rows.length;
}

/** Truncates an error message for storage on the row. */
export const errorText = (err: unknown): string => {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
};
