import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { textArray } from "../../db/text-array";
import { deleteRows } from "../delete-rows";
import { releaseSuperseded } from "../supersede";
import { rewordSummaries } from "../tiers/reword";

type Tx = Pick<Db, "execute" | "select" | "update">;

/**
 * Kinds derived from the memories they cite: a reflection from its evidence, a lesson from its
 * outcomes. Deleted with any of it (docs/adr/0034): the derived text is the same personal data.
 */
export const DERIVED_KINDS = ["reflection", "lesson"] as const;
export type DerivedKind = (typeof DERIVED_KINDS)[number];

/**
 * Derived memories deleted per kind (kinds with none left out); `summary`: summaries left with no
 * member; `archived`: archived members deleted with their summary.
 */
export type DerivedCounts = Partial<Record<DerivedKind | "summary" | "archived", number>>;

/** Ids per statement: bounded arrays, as releaseSuperseded's batches. */
const CHUNK = 1_000;

/**
 * After memories `deleted` were deleted in transaction `tx`: the memories they had superseded
 * are current again (supersede.ts), and every reflection or lesson citing one of them — a
 * lesson also through an earlier revision's outcomes — is deleted too, then whatever cites
 * those, until nothing does. In the caller's transaction, so no retrieve ever sees a derived
 * memory whose evidence is gone. Each round finds the citing memories through the partial GIN
 * index on (agent_id, citations) and locks them in id order before deleting (ADR 0027's order).
 */
export async function deleteDerived(
  tx: Tx,
  agentId: string,
  deleted: readonly string[],
): Promise<DerivedCounts> {
  const counts: DerivedCounts = {};
  let frontier = [...new Set(deleted)];
  while (frontier.length > 0) {
    await releaseSuperseded(tx, agentId, frontier);
    const next: string[] = [];
    // Summaries citing a deleted member are worded from the rest (docs/adr/0044); an empty one goes.
    const empty = await rewordSummaries(tx, agentId, frontier);
    for (const g of await deleteRows(tx, agentId, empty)) {
      if (g.kind === "summary") counts.summary = (counts.summary ?? 0) + 1;
      next.push(g.id);
    }
    for (let i = 0; i < frontier.length; i += CHUNK) {
      const ids = textArray(frontier.slice(i, i + CHUNK));
      const citing = await queryRows<{ id: string }>(
        tx,
        sql`SELECT id FROM memories
          WHERE agent_id = ${agentId} AND kind IN ('reflection', 'lesson') AND cardinality(citations) > 0
            AND citations && ${ids}
          UNION
          SELECT lesson_id AS id FROM lesson_revisions WHERE agent_id = ${agentId} AND outcome_ids && ${ids}
          ORDER BY 1`,
      );
      if (citing.length === 0) continue;
      const gone = await deleteRows<DerivedKind>(
        tx,
        agentId,
        citing.map((r) => r.id),
      );
      for (const g of gone) {
        counts[g.kind] = (counts[g.kind] ?? 0) + 1;
        next.push(g.id);
      }
    }
    frontier = next;
  }
  return counts;
}
