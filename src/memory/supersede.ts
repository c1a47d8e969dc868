import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import { Invalid } from "../lib/errors";

/** One memory replacing an earlier one: `old` gets supersededBy = `by`, validUntil = `at`. */
export type Supersession = { old: string; by: string; at: Date; field: string };

/**
 * Records supersession (docs/adr/0028) in the writer's transaction: every `old` must be a memory
 * of this agent written before (not the one replacing it), else Invalid naming the field. A
 * memory named twice takes the last replacement given (input order); one already superseded
 * takes the new replacement (the caller, or the supersession job, knows the newest version).
 * Rows are locked in id order, as the touch, retention and erasure lock them (ADR 0027).
 */
export async function supersede(
  tx: Pick<Db, "execute">,
  agentId: string,
  replaced: Supersession[],
): Promise<void> {
  if (replaced.length === 0) return;
  const last = new Map<string, Supersession>();
  for (const r of replaced) {
    if (r.old === r.by) throw new Invalid(`${r.field}: a memory cannot supersede itself`, { field: r.field });
    last.delete(r.old);
    last.set(r.old, r);
  }
  const rows = [...last.values()];
  const json = JSON.stringify(rows.map((r) => ({ old: r.old, by: r.by, at: r.at.toISOString() })));
  const updated = await queryRows<{ id: string }>(
    tx,
    sql`
      WITH x AS (SELECT * FROM jsonb_to_recordset(${json}::jsonb) AS x(old text, by text, at timestamptz)),
      locked AS (
        SELECT m.id FROM memories m JOIN x ON x.old = m.id
        WHERE m.agent_id = ${agentId} ORDER BY m.id FOR UPDATE OF m
      )
      UPDATE memories m SET superseded_by = x.by, valid_until = x.at
      FROM x JOIN locked ON locked.id = x.old
      WHERE m.agent_id = ${agentId} AND m.id = x.old
      RETURNING m.id`,
  );
  if (updated.length === rows.length) return;
  const found = new Set(updated.map((u) => u.id));
  const missing = rows.filter((r) => !found.has(r.old));
  const field = missing[0]?.field ?? "supersedes";
  throw new Invalid(
    `${field} names memories this agent does not have: ${missing
      .slice(0, 5)
      .map((r) => r.old)
      .join(", ")}`,
    { field, missing: missing.map((r) => r.old) },
  );
}

/**
 * After memories of an agent were deleted: the memories they had replaced are current again
 * (supersededBy and validUntil cleared), so no memory names a replacement that is gone. Locks
 * in id order (ADR 0027). Erasing an agent deletes every memory, so nothing is left to release.
 */
export async function releaseSuperseded(
  tx: Pick<Db, "execute">,
  agentId: string,
  deleted: readonly string[],
): Promise<void> {
  if (deleted.length === 0) return;
  await tx.execute(sql`
    WITH locked AS (
      SELECT id FROM memories
      WHERE agent_id = ${agentId} AND superseded_by IN (SELECT jsonb_array_elements_text(${JSON.stringify(deleted)}::jsonb))
      ORDER BY id FOR UPDATE
    )
    UPDATE memories m SET superseded_by = NULL, valid_until = NULL
    FROM locked WHERE m.agent_id = ${agentId} AND m.id = locked.id`);
}
