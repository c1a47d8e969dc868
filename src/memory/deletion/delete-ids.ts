import type { Db } from "../../db/client";
import { deleteRows } from "../delete-rows";
import { type DerivedCounts, deleteDerived } from "../derived/delete-derived";

type Tx = Pick<Db, "execute" | "select" | "update">;

/** What one deleting statement removed: memories per kind, and what was derived from them. */
export type Deleted = { ids: string[]; byKind: Record<string, number>; derived: DerivedCounts };

/**
 * Deletes the agent's memories `ids` (at most a few thousand) in the caller's transaction, the way
 * `DELETE /memories/{id}` does: rows locked in id order first (ADR 0027's order, as retrieve's touch
 * and the erase), vectors by cascade, lexical statistics by the delete trigger, then what was
 * derived from them (derived/delete-derived.ts: superseded memories released, citing reflections
 * and lessons deleted). Ids the agent does not have are skipped.
 */
export async function deleteIds(tx: Tx, agentId: string, ids: readonly string[]): Promise<Deleted> {
  const out: Deleted = { ids: [], byKind: {}, derived: {} };
  if (ids.length === 0) return out;
  const gone = await deleteRows(tx, agentId, ids);
  for (const g of gone) {
    out.ids.push(g.id);
    out.byKind[g.kind] = (out.byKind[g.kind] ?? 0) + 1;
  }
  out.derived = await deleteDerived(
    tx,
    agentId,
    gone.map((g) => g.id),
  );
  return out;
}

/** Adds `d`'s counts into `into` (derived kinds included in `byKind` and `derived` both). */
export function addDeleted(
  into: { count: number; byKind: Record<string, number>; derived: DerivedCounts },
  d: Deleted,
): void {
  into.count += d.ids.length;
  for (const [k, n] of Object.entries(d.byKind)) into.byKind[k] = (into.byKind[k] ?? 0) + n;
  for (const [k, n] of Object.entries(d.derived) as [keyof DerivedCounts, number][]) {
    into.derived[k] = (into.derived[k] ?? 0) + n;
    into.count += n;
    into.byKind[k] = (into.byKind[k] ?? 0) + n;
  }
}
