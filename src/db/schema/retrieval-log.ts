import { index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { LoggedCandidate } from "../../memory/learning/logged-candidate";

/**
 * One row per retrieve (bounded per agent in count and age; src/memory/learning/log.ts): the
 * memories it returned with their scaled components, enough to re-rank them under other
 * weights, and the agent's feedback on them. No text: ids and numbers only.
 */
export const retrievalLog = pgTable(
  "retrieval_log",
  {
    agentId: text("agent_id").notNull(),
    id: text("id").notNull(),
    /** `[memoryId, recency', importance', relevance']` per returned memory, best first. */
    candidates: jsonb("candidates").$type<LoggedCandidate[]>().notNull(),
    /** Memory ids the agent reported as used (null until feedback). */
    used: text("used").array(),
    /** Memory ids reported as unused; null = every other candidate. */
    unused: text("unused").array(),
    feedbackAt: timestamp("feedback_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    index("retrieval_log_agent_created_idx").on(t.agentId, t.createdAt),
  ],
);
