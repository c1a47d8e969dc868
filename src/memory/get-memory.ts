import { and, eq, inArray } from "drizzle-orm";
import { memories } from "../db/schema";
import { NotFound } from "../lib/errors";
import { withCitationStatus } from "./citation-status";
import { purgeExpired } from "./deletion/purge-expired";
import type { MemoryDeps } from "./deps";
import { toMemory } from "./serialize";
import { readArchived } from "./tiers/archived";
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
  // An archived memory (docs/adr/0044) is still the agent's: shown with `archived`.
  const shown = row ? toMemory(row) : (await readArchived(deps.db, agentId, [id]))[0];
  if (!shown) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
  const [memory] = await withCitationStatus(deps.db, agentId, [shown]);
  return memory ?? shown;
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
  const rest = ids.filter((id) => !byId.has(id));
  for (const m of await readArchived(deps.db, agentId, rest)) byId.set(m.id, m);
  const found = ids.flatMap((id) => byId.get(id) ?? []);
  return withCitationStatus(deps.db, agentId, found);
}
