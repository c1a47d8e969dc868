import { desc, eq } from "drizzle-orm";
import { reflectionRuns } from "../../db/schema";
import type { MemoryDeps } from "../deps";
import { toRun } from "./runs";
import type { ReflectionRun } from "./types";

/** The agent's most recent reflection runs, newest first (running ones included). */
export async function listReflectionRuns(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  limit: number,
): Promise<ReflectionRun[]> {
  const rows = await deps.db
    .select()
    .from(reflectionRuns)
    .where(eq(reflectionRuns.agentId, agentId))
    .orderBy(desc(reflectionRuns.startedAt), desc(reflectionRuns.id))
    .limit(limit);
  return rows.map(toRun);
}
