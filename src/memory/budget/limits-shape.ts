/**
 * An agent's LLM budget as stored (the `agent_settings.llm_budget` column); a field left out takes
 * the deployment default (MEMSTREAM_LLM_DAILY_TOKENS / MEMSTREAM_LLM_DAILY_CALLS). 0 = unlimited.
 * Its own file, importing nothing, so the table's schema can name it without an import cycle.
 */
export type LlmBudgetLimits = {
  /** Prompt plus completion tokens per UTC day, as the provider reports them. */
  dailyTokens?: number;
  /** Chat completions per UTC day. */
  dailyCalls?: number;
};
