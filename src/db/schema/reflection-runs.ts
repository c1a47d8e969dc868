import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** One row per reflection run: what triggered it, what it asked, what it stored, what it cost. */
export const reflectionRuns = pgTable(
  "reflection_runs",
  {
    id: text("id").notNull(),
    agentId: text("agent_id").notNull(),
    /** `threshold` or `manual` */
    trigger: text("trigger").notNull(),
    /** running → succeeded | failed */
    status: text("status").notNull().default("running"),
    promptVersion: text("prompt_version"),
    questions: jsonb("questions").$type<string[]>().notNull().default([]),
    insightIds: text("insight_ids").array().notNull().default([]),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    llmCalls: integer("llm_calls").notNull().default(0),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    index("reflection_runs_agent_idx").on(t.agentId, t.startedAt.desc()),
    // At most one running reflection per agent, across every process (docs/adr/0005-reflection-runs.md).
    uniqueIndex("reflection_runs_one_running_idx").on(t.agentId).where(sql`${t.status} = 'running'`),
  ],
);
