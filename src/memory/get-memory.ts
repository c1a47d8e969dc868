import { and, eq, inArray } from "drizzle-orm";
import { memories } from "../db/schema";
import { NotFound } from "../lib/errors";
import { withCitationStatus } from "./citation-status";
import { purgeExpired } from "./deletion/purge-expired";
import type { MemoryDeps } from "./deps";
import { toMemory } from "./serialize";
import type { Memory } from "./types";

/** One memory of one agent; another agent's id is as unknown as a missing one. */
export async function getMemory(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  id: string,
): Promise<Memory> {
  await purgeExpired(deps, agentId, deps.clock.now());
  const [row] = await deps.db
    .select()
    .from(memories)
    .where(and(eq(memories.agentId, agentId), eq(memories.id, id)));
  if (!row) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
  const [memory] = await withCitationStatus(deps.db, agentId, [toMemory(row)]);
  return memory ?? toMemory(row);
}

/** The memories of `ids` this agent has, in the order asked (missing ones left out); one query. */
export async function getMemories(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  ids: string[],
): Promise<Memory[]> {
  if (ids.length === 0) return [];
  const rows = await deps.db
    .select()
    .from(memories)
    .where(and(eq(memories.agentId, agentId), inArray(memories.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, toMemory(r)]));
  const found = ids.flatMap((id) => byId.get(id) ?? []);
  return withCitationStatus(deps.db, agentId, found);
}
