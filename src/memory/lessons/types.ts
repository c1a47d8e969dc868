/** Outcomes and lessons as the domain and the API see them. */

/** One strategy's record within a lesson's outcomes (`null` strategy: none was given). */
export type StrategyStats = {
  strategy: string | null;
  attempts: number;
  successes: number;
  failures: number;
  /** Failure errors by text, most frequent first (at most 5). */
  errors: { error: string; count: number }[];
};

/** The counts a lesson rests on: per strategy, best supported first. */
export type LessonStats = { outcomes: number; successes: number; strategies: StrategyStats[] };

export const LESSON_POLARITIES = ["heuristic", "anti-pattern"] as const;
export type LessonPolarity = (typeof LESSON_POLARITIES)[number];

/** A lesson: its memory's wording and citations plus its current revision's counts. */
export type Lesson = {
  id: string;
  agentId: string;
  taskType: string | null;
  polarity: LessonPolarity;
  description: string;
  /** 0..1: the rule of succession over the leading strategy's attempts (ADR 0018). */
  confidence: number;
  revision: number;
  stats: LessonStats;
  /** The outcome memories it was drawn from (the memory's citations). */
  citations: string[];
  /** `template:v1` (offline) or the LLM prompt version, e.g. `lesson:v1`. */
  wording: string;
  importance: number | null;
  createdAt: string;
  updatedAt: string;
};

/** The structured fields of an outcome. */
export type OutcomeFields = {
  task: string;
  taskType: string | null;
  success: boolean;
  strategy: string | null;
  error: string | null;
  durationMs: number | null;
};
