import type { MemoryFilters } from "../../filters";
import type { RecencyUnit, Weights } from "../ranking/components";
import type { FreshVector, LexicalQuery, QueryVector } from "../ranking/relevance/kinds";
import type { ScaleFloors } from "../ranking/scale";
import type { VersionLift } from "../ranking/versions";

/** What every ranking statement ranks by: the candidate set, the query, and the ranking values. */
export type RankParams = {
  agentId: string;
  filters: MemoryFilters;
  /** Query vector as pgvector text (`[0.1,0.2,...]`), its model and dimension; null = no relevance. */
  query: QueryVector | null;
  /** Vectors embedded at retrieve time for candidates without one (read your own writes). */
  fresh?: FreshVector[];
  /** Lexical or hybrid relevance (exact statements only); absent = vector relevance, the paper's. */
  lexical?: LexicalQuery;
  /**
   * From a time expression in the query (time-window.ts): only memories created in [start, end)
   * are candidates, unless none of the filtered memories is. Full and sectioned statements only.
   */
  timeWindow?: { start: Date; end: Date } | null;
  now: Date;
  /**
   * Recall as of this time (../../as-of.ts): recency reads the last access known to precede it.
   * The caller also cuts the candidates at it (`filters.until`), which sends the request to the
   * statements that score every candidate (full, sections).
   */
  asOf?: Date;
  decay: number;
  /** The time unit `decay` applies per; absent = hour (the paper's). */
  recencyUnit?: RecencyUnit;
  weights: Weights;
  /** Floors of the scaled ranges (ranking/scale.ts); absent = plain min-max. */
  floors?: ScaleFloors;
  /**
   * Lift versions of a fact among the best few by the question's time focus (ranking/versions.ts);
   * absent = none. The full statement only (the planner sees to it); needs a query vector.
   */
  lift?: VersionLift;
  k: number;
  touch: boolean;
  /**
   * Rank per section (sections.ts): each memory goes to the section listing its kind
   * (`kinds` null = every kind no section lists), and each section keeps its own top `k`.
   */
  sections?: RankSection[];
};

/** One section of a sectioned ranking: its kinds (null = the rest) and how many it keeps. */
export type RankSection = { kinds: string[] | null; k: number };

/** Whether filters or a time window narrow the candidates below the agent's whole stream. */
export const narrowed = (p: Pick<RankParams, "filters" | "timeWindow">): boolean =>
  Object.values(p.filters).some((v) => v !== undefined) || Boolean(p.timeWindow);
