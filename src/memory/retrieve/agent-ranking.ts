import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { agentSettings } from "../../db/schema";
import type { RankingChoice } from "./presets";

/** The agent's own ranking defaults (PUT /v1/agents/{agentId}/settings), or null. One primary-key read. */
export async function agentRanking(db: Db, agentId: string): Promise<RankingChoice | null> {
  const [row] = await db
    .select({ retrieval: agentSettings.retrieval })
    .from(agentSettings)
    .where(eq(agentSettings.agentId, agentId));
  return row?.retrieval ?? null;
}
