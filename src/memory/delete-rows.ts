import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";

/**
 * Deletes the agent's memories `ids` in the caller's transaction, rows locked in id order first
 * (ADR 0027's order, as retrieve's touch and the erase take them), so two deletes over the same
 * rows wait rather than deadlock; vectors go by cascade, lexical statistics by the delete trigger.
 * Archived memories (docs/adr/0044) are deleted by the same ids, and with their summary.
 * Answers what went, with its kind; ids the agent does not have are skipped.
 */
export async function deleteRows<K extends string = string>(
  tx: Pick<Db, "execute">,
  agentId: string,
  ids: readonly string[],
): Promise<{ id: string; kind: K }[]> {
  if (ids.length === 0) return [];
  const list = sql.join(
    [...new Set(ids)].map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(
    sql`SELECT id FROM memories WHERE agent_id = ${agentId} AND id IN (${list}) ORDER BY id COLLATE "C" FOR UPDATE`,
  );
  const gone = await queryRows<{ id: string; kind: K }>(
    tx,
    sql`DELETE FROM memories WHERE agent_id = ${agentId} AND id IN (${list}) RETURNING id, kind`,
  );
  // The archive tier (docs/adr/0044): an archived memory named by id goes as a ranked one does, and
  // a deleted summary takes the members it stood for (nothing ranks or expands to them any more).
  const summaries = gone.filter((g) => g.kind === "summary").map((g) => sql`${g.id}`);
  const archived = await queryRows<{ id: string; kind: K }>(
    tx,
    sql`DELETE FROM memory_archive WHERE agent_id = ${agentId}
      AND (id IN (${list})${summaries.length > 0 ? sql` OR summary_id IN (${sql.join(summaries, sql`, `)})` : sql``})
      RETURNING id, kind`,
  );
  return [...gone, ...archived];
}
