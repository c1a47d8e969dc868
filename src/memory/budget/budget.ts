/**
 * The LLM budget per agent and UTC day (docs/adr/0041-llm-budget.md): limits are the agent's
 * `llmBudget` setting, else the deployment default, and those of the API keys that open the agent
 * (shared by all the key's agents); spend is the provider's reported usage, added by one upsert per
 * chat completion (and one per budgeted key scope). Work checks `exhausted` before it asks the LLM and does the
 * offline thing (or nothing, for now) past the limit; a call already admitted always completes
 * and is counted, so a day can end over its limit by the calls that were in flight.
 */
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { type AgentScope, inAgentScope } from "../../lib/agent-scope";
import type { Metrics } from "../../metrics";
import type { ChatUsage, Clock } from "../../providers/types";
import type { LlmBudgetLimits } from "./limits-shape";

export type { LlmBudgetLimits } from "./limits-shape";

/** Deployment defaults (MEMSTREAM_LLM_DAILY_TOKENS, MEMSTREAM_LLM_DAILY_CALLS); 0 = unlimited. */
export type LlmBudgetDefaults = Required<LlmBudgetLimits>;

/** Work that waits (or goes offline) when an agent's budget is spent; the metric's label. */
export type BudgetedWork = "importance" | "reflection" | "supersession" | "lesson";

/** Limits in force (null = unlimited), what was spent against them, what is left. */
export type BudgetTally = {
  limits: { tokens: number | null; calls: number | null };
  spent: { tokens: number; promptTokens: number; completionTokens: number; calls: number };
  remaining: { tokens: number | null; calls: number | null };
  /** True when a limit is reached. */
  exhausted: boolean;
};

/** An agent's budget today, and the budgets of the API keys that open it (shared with their other agents). */
export type LlmBudgetStatus = BudgetTally & {
  /** The UTC day of the service clock, `YYYY-MM-DD`. */
  day: string;
  /** When the next day's budget starts (UTC midnight). */
  resetsAt: string;
  /** Budgeted keys whose scope holds this agent: `scope` is `*`, `prefix:<p>` or `exact:<id>`. */
  keys: (BudgetTally & { scope: string })[];
  /** True when the agent's own limit or a key's is reached: new LLM work waits for `resetsAt`. */
  exhausted: boolean;
};

/** A budget for all the agents an API key opens (`MEMSTREAM_API_KEYS` `…;dailyTokens=N;dailyCalls=N`). */
export type KeyBudget = { scope: AgentScope | null; limits: Required<LlmBudgetLimits> };

/** The row name of a key's scope in `llm_scope_spend`. */
export const scopeName = (scope: AgentScope | null): string => (scope ? `${scope.kind}:${scope.value}` : "*");

type SpendRow = { pt?: number | string | null; ct?: number | string | null; n?: number | string | null };

const limitOf = (n: number) => (n > 0 ? n : null);

function tally(limits: BudgetTally["limits"], row: SpendRow | undefined): BudgetTally {
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
  return { limits, spent, remaining, exhausted: remaining.tokens === 0 || remaining.calls === 0 };
}

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
  /** Budgets of API keys, each shared by the agents its scope opens; absent = none. */
  keys?: readonly KeyBudget[];
  metrics?: Pick<Metrics, "llmTokens" | "llmCalls" | "llmBudgetDeferred">;
};

/** The UTC day of `now`, as Postgres `date` text. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

export function createLlmBudget(deps: LlmBudgetDeps): LlmBudget {
  const keys = (deps.keys ?? []).filter((k) => k.limits.dailyTokens > 0 || k.limits.dailyCalls > 0);
  const keysOf = (agentId: string) => keys.filter((k) => inAgentScope(k.scope, agentId));

  const status = async (agentId: string): Promise<LlmBudgetStatus> => {
    const now = deps.clock.now();
    const day = utcDay(now);
    // One statement: the agent's limits and today's spend (both primary-key lookups of one agent).
    const [row] = await queryRows<
      SpendRow & { tokens: number | string | null; calls: number | string | null }
    >(
      deps.db,
      sql`SELECT (s.llm_budget->>'dailyTokens')::bigint AS tokens, (s.llm_budget->>'dailyCalls')::bigint AS calls,
          sp.prompt_tokens AS pt, sp.completion_tokens AS ct, sp.calls AS n
        FROM (SELECT 1) one
        LEFT JOIN agent_settings s ON s.agent_id = ${agentId}
        LEFT JOIN llm_spend sp ON sp.agent_id = ${agentId} AND sp.day = ${day}::date`,
    );
    const own = (v: unknown, dflt: number) => limitOf(v === null || v === undefined ? dflt : Number(v));
    const agent = tally(
      {
        tokens: own(row?.tokens, deps.defaults.dailyTokens),
        calls: own(row?.calls, deps.defaults.dailyCalls),
      },
      row,
    );
    const covering = keysOf(agentId);
    // The keys' shared spend: primary-key reads, only when a budgeted key opens this agent.
    const shared =
      covering.length === 0
        ? new Map<string, SpendRow>()
        : new Map(
            (
              await queryRows<SpendRow & { scope: string }>(
                deps.db,
                sql`SELECT scope, prompt_tokens AS pt, completion_tokens AS ct, calls AS n FROM llm_scope_spend
                  WHERE day = ${day}::date AND scope IN (${sql.join(
                    covering.map((k) => sql`${scopeName(k.scope)}`),
                    sql`, `,
                  )})`,
              )
            ).map((r) => [r.scope, r]),
          );
    const keyTallies = covering.map((k) => ({
      scope: scopeName(k.scope),
      ...tally(
        { tokens: limitOf(k.limits.dailyTokens), calls: limitOf(k.limits.dailyCalls) },
        shared.get(scopeName(k.scope)),
      ),
    }));
    const resetsAt = new Date(`${day}T00:00:00.000Z`);
    resetsAt.setUTCDate(resetsAt.getUTCDate() + 1);
    return {
      day,
      resetsAt: resetsAt.toISOString(),
      ...agent,
      keys: keyTallies,
      exhausted: agent.exhausted || keyTallies.some((k) => k.exhausted),
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
      const scopes = [...new Set(keysOf(agentId).map((k) => scopeName(k.scope)))];
      if (scopes.length > 0) {
        await deps.db.execute(
          sql`INSERT INTO llm_scope_spend (scope, day, prompt_tokens, completion_tokens, calls)
            VALUES ${sql.join(
              scopes.map(
                (sc) => sql`(${sc}, ${day}::date, ${usage.promptTokens}, ${usage.completionTokens}, 1)`,
              ),
              sql`, `,
            )}
            ON CONFLICT (scope, day) DO UPDATE SET
              prompt_tokens = llm_scope_spend.prompt_tokens + excluded.prompt_tokens,
              completion_tokens = llm_scope_spend.completion_tokens + excluded.completion_tokens,
              calls = llm_scope_spend.calls + 1`,
        );
      }
      deps.metrics?.llmCalls.inc();
      deps.metrics?.llmTokens.inc({ kind: "prompt" }, usage.promptTokens);
      deps.metrics?.llmTokens.inc({ kind: "completion" }, usage.completionTokens);
    },
    deferred: (work) => deps.metrics?.llmBudgetDeferred.inc({ work }),
  };
}
