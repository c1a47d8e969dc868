import { eq } from "drizzle-orm";
import { agentSettings } from "../db/schema";
import type { LlmBudgetDefaults, LlmBudgetLimits } from "./budget/budget";
import type { MemoryDeps } from "./deps";
import { type LearnedState, NO_LEARNING } from "./learning/state";
import { effectiveLessonSettings, type LessonSettings } from "./lessons/settings";
import type { RetentionPolicy } from "./retention/policy";
import { type RankingChoice, type ResolvedRanking, resolveRanking } from "./retrieve/presets";
import { type Compaction, type CompactionSettings, compactionOf } from "./tiers/settings-shape";

export type AgentSettings = {
  agentId: string;
  /** The agent's own threshold; null = the deployment default. 0 turns the threshold trigger off. */
  reflectionThreshold: number | null;
  /** The threshold in force: the agent's own, else the deployment default. */
  effectiveReflectionThreshold: number;
  /** The agent's retrieve defaults; null = the service default. */
  retrieval: RankingChoice | null;
  /** What a retrieve giving no ranking fields ranks with. */
  effectiveRetrieval: ResolvedRanking;
  /** The agent's lesson consolidation settings; null = the defaults. */
  lessons: LessonSettings | null;
  /** The lesson settings in force. */
  effectiveLessons: Required<LessonSettings>;
  /** What the `agent.retain` job may delete; null = keep everything. */
  retention: RetentionPolicy | null;
  /** Whether learned weights rank the agent's retrieves; null = the deployment default. */
  learnWeights: boolean | null;
  effectiveLearnWeights: boolean;
  /** The learned weights (null until a fit is adopted), their evidence and the last fit tried. */
  learned: LearnedState;
  /** The agent's daily LLM limits; null = the deployment default (a field left out too). 0 = unlimited. */
  llmBudget: LlmBudgetLimits | null;
  effectiveLlmBudget: LlmBudgetDefaults;
  /** How long identical retrieves may be answered from the result cache (ms); null = the deployment default. 0 = off. */
  retrieveCacheTtlMs: number | null;
  effectiveRetrieveCacheTtlMs: number;
  /** Compaction into summaries (docs/adr/0044); null = off. */
  compaction: CompactionSettings | null;
  effectiveCompaction: Compaction;
};

/** Deployment defaults of the settings an agent may leave unset. */
export type SettingsDefaults = {
  reflectionThreshold: number;
  learnWeights: boolean;
  /** Absent: unlimited (0). */
  llmBudget?: LlmBudgetDefaults;
  /** Absent: off (0). */
  retrieveCacheTtlMs?: number;
};

/** A settings change: a field left out keeps its value; null resets it to the deployment default. */
export type AgentSettingsPatch = {
  reflectionThreshold?: number | null;
  retrieval?: RankingChoice | null;
  lessons?: LessonSettings | null;
  retention?: RetentionPolicy | null;
  learnWeights?: boolean | null;
  llmBudget?: LlmBudgetLimits | null;
  retrieveCacheTtlMs?: number | null;
  compaction?: CompactionSettings | null;
};

/** Sets an agent's settings (creating its row on first use) and returns them. */
export async function updateAgentSettings(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  patch: AgentSettingsPatch,
  defaults: SettingsDefaults,
): Promise<AgentSettings> {
  const now = deps.clock.now();
  // A new retention policy runs at the next sweep, not an interval after the old one's last run.
  // So is a new compaction setting (the same job runs it).
  const renewed = patch.retention !== undefined || patch.compaction !== undefined;
  const set = { ...patch, updatedAt: now, ...(renewed ? { retainedAt: null } : {}) };
  const [row] = await deps.db
    .insert(agentSettings)
    .values({ agentId, ...set })
    .onConflictDoUpdate({ target: agentSettings.agentId, set })
    .returning();
  return present(agentId, row ?? null, defaults);
}

/** Reads an agent's settings (defaults when it has set none). */
export async function getAgentSettings(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  defaults: SettingsDefaults,
): Promise<AgentSettings> {
  const [row] = await deps.db.select().from(agentSettings).where(eq(agentSettings.agentId, agentId));
  return present(agentId, row ?? null, defaults);
}

function present(
  agentId: string,
  row: {
    reflectionThreshold: number | null;
    retrieval: RankingChoice | null;
    lessons: LessonSettings | null;
    retention: RetentionPolicy | null;
    learnWeights: boolean | null;
    learned: LearnedState | null;
    llmBudget: LlmBudgetLimits | null;
    retrieveCacheTtlMs: number | null;
    compaction: CompactionSettings | null;
  } | null,
  defaults: SettingsDefaults,
): AgentSettings {
  const threshold = row?.reflectionThreshold ?? null;
  const retrieval = row?.retrieval ?? null;
  const learnWeights = row?.learnWeights ?? null;
  const learning = learnWeights ?? defaults.learnWeights;
  const learned = row?.learned ?? NO_LEARNING;
  return {
    agentId,
    reflectionThreshold: threshold,
    effectiveReflectionThreshold: threshold ?? defaults.reflectionThreshold,
    retrieval,
    effectiveRetrieval: resolveRanking({}, retrieval, learning ? learned.weights : null),
    lessons: row?.lessons ?? null,
    effectiveLessons: effectiveLessonSettings(row?.lessons ?? null),
    retention: row?.retention ?? null,
    learnWeights,
    effectiveLearnWeights: learning,
    learned,
    llmBudget: row?.llmBudget ?? null,
    effectiveLlmBudget: {
      dailyTokens: row?.llmBudget?.dailyTokens ?? defaults.llmBudget?.dailyTokens ?? 0,
      dailyCalls: row?.llmBudget?.dailyCalls ?? defaults.llmBudget?.dailyCalls ?? 0,
    },
    retrieveCacheTtlMs: row?.retrieveCacheTtlMs ?? null,
    effectiveRetrieveCacheTtlMs: row?.retrieveCacheTtlMs ?? defaults.retrieveCacheTtlMs ?? 0,
    compaction: row?.compaction ?? null,
    effectiveCompaction: compactionOf(row?.compaction),
  };
}
