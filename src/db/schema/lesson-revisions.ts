import {
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import type { LessonStats } from "../../memory/lessons/types";
import { memories } from "./memories";

/**
 * Every revision of a `lesson` memory: the lesson memory holds the current wording (and its
 * citations: the outcomes it rests on); each consolidation that changes it adds a row here, so the
 * history of counts, confidence and wording is kept. Deleted with the lesson memory.
 */
export const lessonRevisions = pgTable(
  "lesson_revisions",
  {
    agentId: text("agent_id").notNull(),
    lessonId: text("lesson_id").notNull(),
    revision: integer("revision").notNull(),
    taskType: text("task_type"),
    /** `heuristic` (a strategy that works) or `anti-pattern` (one that keeps failing). */
    polarity: text("polarity").notNull(),
    description: text("description").notNull(),
    stats: jsonb("stats").$type<LessonStats>().notNull(),
    confidence: doublePrecision("confidence").notNull(),
    outcomeIds: text("outcome_ids").array().notNull(),
    /** `template:v1` offline, else the LLM prompt version (`lesson.v1`). */
    wording: text("wording").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.lessonId, t.revision] }),
    foreignKey({
      columns: [t.agentId, t.lessonId],
      foreignColumns: [memories.agentId, memories.id],
    }).onDelete("cascade"),
    index("lesson_revisions_agent_task_type_idx").on(t.agentId, t.taskType),
  ],
);
