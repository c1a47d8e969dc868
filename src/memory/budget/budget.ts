/**
 * The LLM budget per agent and UTC day (docs/adr/0041-llm-budget.md): limits are the agent's
 * `llmBudget` setting, else the deployment default; spend is the provider's reported usage, added
 * by one upsert per chat completion. Work checks `exhausted` before it asks the LLM and does the
 * offline thing (or nothing, for now) past the limit; a call already admitted always completes
 * and is counted, so a day can end over its limit by the calls that were in flight.
 */
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import type { Metrics } from "../../metrics";
import type { ChatUsage, Clock } from "../../providers/types";
import type { LlmBudgetLimits } from "./limits-shape";

export type { LlmBudgetLimits } from "./limits-shape";

/** Deployment defaults (MEMSTREAM_LLM_DAILY_TOKENS, MEMSTREAM_LLM_DAILY_CALLS); 0 = unlimited. */
export type LlmBudgetDefaults = Required<LlmBudgetLimits>;

/** Work that waits (or goes offline) when an agent's budget is spent; the metric's label. */
export type BudgetedWork = "importance" | "reflection" | "supersession" | "lesson";

/** An agent's budget today: limits in force (null = unlimited), what was spent, what is left. */
export type LlmBudgetStatus = {
  /** The UTC day of the service clock, `YYYY-MM-DD`. */
  day: string;
  /** When the next day's budget starts (UTC midnight). */
  resetsAt: string;
  limits: { tokens: number | null; calls: number | null };
  spent: { tokens: number; promptTokens: number; completionTokens: number; calls: number };
  remaining: { tokens: number | null; calls: number | null };
  /** True when a limit is reached: new LLM work waits for `resetsAt`. */
  exhausted: boolean;
};

export interface LlmBudget {
  status(agentId: string): Promise<LlmBudgetStatus>;
  /** True when the agent may not start LLM work today. */
  exhausted(agentId: string): Promise<boolean>;
  /** Adds one finished call's reported usage to the agent's day (one upsert). */
  charge(agentId: string, usage: ChatUsage): Promise<void>;
  /** Counts work left undone (or done offline) because the budget was spent. */
  deferred(work: BudgetedWork): void;
}

export type LlmBudgetDeps = {
  db: Pick<Db, "execute">;
  clock: Clock;
  defaults: LlmBudgetDefaults;
  metrics?: Pick<Metrics, "llmTokens" | "llmCalls" | "llmBudgetDeferred">;
};

/** The UTC day of `now`, as Postgres `date` text. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

export function createLlmBudget(deps: LlmBudgetDeps): LlmBudget {
  const status = async (agentId: string): Promise<LlmBudgetStatus> => {
    const now = deps.clock.now();
    const day = utcDay(now);
    // One statement: the agent's limits and today's spend (both primary-key lookups of one agent).
    const [row] = await queryRows<{
      tokens: number | string | null;
      calls: number | string | null;
      pt: number | string | null;
      ct: number | string | null;
      n: number | string | null;
    }>(
      deps.db,
      sql`SELECT (s.llm_budget->>'dailyTokens')::bigint AS tokens, (s.llm_budget->>'dailyCalls')::bigint AS calls,
          sp.prompt_tokens AS pt, sp.completion_tokens AS ct, sp.calls AS n
        FROM (SELECT 1) one
        LEFT JOIN agent_settings s ON s.agent_id = ${agentId}
        LEFT JOIN llm_spend sp ON sp.agent_id = ${agentId} AND sp.day = ${day}::date`,
    );
    const limit = (own: unknown, dflt: number) => {
      const n = own === null || own === undefined ? dflt : Number(own);
      return n > 0 ? n : null;
    };
    const limits = {
      tokens: limit(row?.tokens, deps.defaults.dailyTokens),
      calls: limit(row?.calls, deps.defaults.dailyCalls),
    };
    const promptTokens = Number(row?.pt ?? 0);
    const completionTokens = Number(row?.ct ?? 0);
    const spent = {
      tokens: promptTokens + completionTokens,
      promptTokens,
      completionTokens,
      calls: Number(row?.n ?? 0),
    };
    const left = (lim: number | null, used: number) => (lim === null ? null : Math.max(0, lim - used));
    const remaining = { tokens: left(limits.tokens, spent.tokens), calls: left(limits.calls, spent.calls) };
    const resetsAt = new Date(`${day}T00:00:00.000Z`);
    resetsAt.setUTCDate(resetsAt.getUTCDate() + 1);
    return {
      day,
      resetsAt: resetsAt.toISOString(),
      limits,
      spent,
      remaining,
      exhausted: remaining.tokens === 0 || remaining.calls === 0,
    };
  };

  return {
    status,
    exhausted: async (agentId) => (await status(agentId)).exhausted,
    async charge(agentId, usage) {
      const day = utcDay(deps.clock.now());
      await deps.db.execute(
        sql`INSERT INTO llm_spend (agent_id, day, prompt_tokens, completion_tokens, calls)
          VALUES (${agentId}, ${day}::date, ${usage.promptTokens}, ${usage.completionTokens}, 1)
          ON CONFLICT (agent_id, day) DO UPDATE SET
            prompt_tokens = llm_spend.prompt_tokens + excluded.prompt_tokens,
            completion_tokens = llm_spend.completion_tokens + excluded.completion_tokens,
            calls = llm_spend.calls + 1`,
      );
      deps.metrics?.llmCalls.inc();
      deps.metrics?.llmTokens.inc({ kind: "prompt" }, usage.promptTokens);
      deps.metrics?.llmTokens.inc({ kind: "completion" }, usage.completionTokens);
    },
    deferred: (work) => deps.metrics?.llmBudgetDeferred.inc({ work }),
  };
}
