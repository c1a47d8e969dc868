import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { memories } from "../db/schema";
import { Invalid } from "../lib/errors";

/** One memory replacing earlier ones: each of `old` gets supersededBy = `by`, validUntil = `at`. */
export type Supersession = { old: string[]; by: string; at: Date; field: string };

type Tx = Pick<Db, "select" | "update">;

/**
 * Records supersession (docs/adr/0029) in the writer's transaction: every id in `old` must be a
 * memory of this agent written before (not the one replacing it), else Invalid naming the field.
 * A memory named twice takes the last replacement given (input order); one already superseded
 * takes the new replacement unless `onlyCurrent` (the supersession job never overrides a caller).
 * The rows are locked in id order first (as the touch, retention and erasure lock them, ADR 0027),
 * with the replacing memories when they already exist (the job: a replacement deleted meanwhile
 * records nothing); then one plain UPDATE per replacing memory, routable on Citus. Returns the
 * ids marked.
 */
export async function supersede(
  tx: Tx,
  agentId: string,
  replaced: Supersession[],
  opts: { onlyCurrent?: boolean; existing?: boolean } = {},
): Promise<string[]> {
  const last = new Map<string, Supersession>();
  for (const r of replaced)
    for (const old of r.old) {
      if (old === r.by) throw new Invalid(`${r.field}: a memory cannot supersede itself`, { field: r.field });
      last.delete(old);
      last.set(old, r);
    }
  if (last.size === 0) return [];
  const olds = [...last.keys()];
  const lockIds = opts.existing ? [...new Set([...olds, ...replaced.map((r) => r.by)])] : olds;
  const locked = await tx
    .select({ id: memories.id })
    .from(memories)
    .where(and(eq(memories.agentId, agentId), inArray(memories.id, lockIds)))
    .orderBy(sql`${memories.id} COLLATE "C"`)
    .for("update");
  const found = new Set(locked.map((l) => l.id));
  const missing = olds.filter((o) => !found.has(o));
  if (missing.length > 0 && !opts.existing) {
    const field = last.get(missing[0] as string)?.field ?? "supersedes";
    throw new Invalid(`${field} names memories this agent does not have: ${missing.slice(0, 5).join(", ")}`, {
      field,
      missing,
    });
  }
  const marked: string[] = [];
  for (const r of replaced) {
    if (opts.existing && !found.has(r.by)) continue;
    const mine = r.old.filter((o) => last.get(o) === r && found.has(o));
    if (mine.length === 0) continue;
    const rows = await tx
      .update(memories)
      .set({ supersededBy: r.by, validUntil: r.at })
      .where(
        and(
          eq(memories.agentId, agentId),
          inArray(memories.id, mine),
          opts.onlyCurrent ? isNull(memories.supersededBy) : undefined,
        ),
      )
      .returning({ id: memories.id });
    marked.push(...rows.map((x) => x.id));
  }
  return marked;
}

/**
 * After memories of an agent were deleted: the memories they had replaced are current again
 * (supersededBy and validUntil cleared), so no memory names a replacement that is gone. Locks
 * in id order (ADR 0027). Erasing an agent deletes every memory, so nothing is left to release.
 */
export async function releaseSuperseded(tx: Tx, agentId: string, deleted: readonly string[]): Promise<void> {
  if (deleted.length === 0) return;
  for (let i = 0; i < deleted.length; i += 1000) {
    const part = deleted.slice(i, i + 1000);
    const stale = await tx
      .select({ id: memories.id })
      .from(memories)
      .where(and(eq(memories.agentId, agentId), inArray(memories.supersededBy, part)))
      .orderBy(sql`${memories.id} COLLATE "C"`)
      .for("update");
    if (stale.length === 0) continue;
    await tx
      .update(memories)
      .set({ supersededBy: null, validUntil: null })
      .where(
        and(
          eq(memories.agentId, agentId),
          inArray(
            memories.id,
            stale.map((s) => s.id),
          ),
        ),
      );
  }
}
