import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { erasureReceipts } from "../../db/schema";
import { NotFound } from "../../lib/errors";

/** What an erasure removed (docs/adr/0034): counts only, never content; kept after the data is gone. */
export type ErasureReceipt = {
  id: string;
  agentId: string;
  /** The agent's erase count after this one: writes after it are this epoch's stream. */
  epoch: number;
  erasedAt: string;
  /** Rows removed per table, cascades included. */
  rows: Record<string, number>;
  /** Memories removed per kind. */
  memoriesByKind: Record<string, number>;
  /** Pending work that will write nothing: enrichment not done yet, reflection runs still running. */
  cancelled: Record<string, number>;
};

/** The receipt `id` of an erasure of `agentId`; NotFound for another agent's or an unknown id. */
export async function getErasureReceipt(
  deps: { db: Pick<Db, "select"> },
  agentId: string,
  id: string,
): Promise<ErasureReceipt> {
  const [row] = await deps.db
    .select()
    .from(erasureReceipts)
    .where(and(eq(erasureReceipts.agentId, agentId), eq(erasureReceipts.id, id)));
  if (!row) throw new NotFound(`erasure ${id} not found for agent ${agentId}`, { id });
  return { ...row, erasedAt: row.erasedAt.toISOString() };
}
