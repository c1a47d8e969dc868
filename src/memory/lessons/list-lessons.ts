import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { isoUtc } from "../../db/iso";
import type { Lesson } from "./types";

/** A row as the statement reads it: the lesson without its agent (the caller knows it). */
type Row = Omit<Lesson, "agentId">;

/** Most lessons one listing returns. */
export const MAX_LESSONS = 500;

/**
 * An agent's lessons with their newest revision, most confident first; `taskType` narrows to
 * one task type. The wording and citations are the memory's (what retrieve returns).
 */
export async function listLessons(
  db: Db,
  agentId: string,
  opts: { taskType?: string; limit: number },
): Promise<Lesson[]> {
  const byType = opts.taskType === undefined ? sql`` : sql`AND r.task_type = ${opts.taskType}`;
  const rows = await queryRows<Row>(
    db,
    sql`SELECT m.id, r.task_type AS "taskType", r.polarity, m.description, r.confidence, r.revision,
          r.stats, m.citations, r.wording, m.importance,
          ${isoUtc(sql`m.created_at`)} AS "createdAt", ${isoUtc(sql`r.created_at`)} AS "updatedAt"
        FROM memories m
        JOIN LATERAL (
          SELECT * FROM lesson_revisions lr
          WHERE lr.agent_id = ${agentId} AND lr.lesson_id = m.id
          ORDER BY lr.revision DESC LIMIT 1) r ON true
        WHERE m.agent_id = ${agentId} AND m.kind = 'lesson' ${byType}
        ORDER BY r.confidence DESC, r.created_at DESC, m.id
        LIMIT ${opts.limit}`,
  );
  return rows.map((r) => ({ ...r, agentId, confidence: Number(r.confidence), revision: Number(r.revision) }));
}
