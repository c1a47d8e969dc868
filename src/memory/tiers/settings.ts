import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { type Compaction, type CompactionSettings, compactionOf } from "./settings-shape";

/** The agent's compaction settings, every field given (an agent without a row: compaction off). */
export async function readCompaction(db: Pick<Db, "execute">, agentId: string): Promise<Compaction> {
  const [row] = await queryRows<{ compaction: CompactionSettings | null }>(
    db,
    sql`SELECT compaction FROM agent_settings WHERE agent_id = ${agentId}`,
  );
  return compactionOf(row?.compaction);
}
