import { bigint, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * What an agent spent on the LLM per UTC day (docs/adr/0041-llm-budget.md): one row per agent and
 * day, added to by one upsert per chat completion from the provider's reported usage. Counts only,
 * no content; kept through an erasure, so erasing a stream does not refill its budget.
 */
export const llmSpend = pgTable(
  "llm_spend",
  {
    agentId: text("agent_id").notNull(),
    /** The UTC day of the service clock the calls were made on. */
    day: date("day", { mode: "string" }).notNull(),
    promptTokens: bigint("prompt_tokens", { mode: "number" }).notNull().default(0),
    completionTokens: bigint("completion_tokens", { mode: "number" }).notNull().default(0),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.day] })],
);

/**
 * What the agents of one budgeted API key's scope spent together per UTC day (`MEMSTREAM_API_KEYS`
 * `…;dailyTokens=N`): `scope` is `*` (every agent), `prefix:<p>` or `exact:<id>`, added to by the
 * same charge that adds to `llm_spend`, so a key's budget is one primary-key read.
 */
export const llmScopeSpend = pgTable(
  "llm_scope_spend",
  {
    scope: text("scope").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    promptTokens: bigint("prompt_tokens", { mode: "number" }).notNull().default(0),
    completionTokens: bigint("completion_tokens", { mode: "number" }).notNull().default(0),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.day] })],
);
