import type { RecencyUnit, Weights } from "./ranking/components";
import { HYBRID_VECTOR_SHARE, type RelevanceKind } from "./ranking/relevance/kinds";

/**
 * Everything that decides how memories are ordered (besides the query itself). `timeFilter`:
 * a time expression in the query ("in June 2023", "last week") keeps only the memories created
 * in that window, when any is (time-window.ts).
 */
export type Ranking = {
  weights: Weights;
  decay: number;
  recencyUnit: RecencyUnit;
  relevance: RelevanceKind;
  /** α of hybrid and contextual relevance: α·cosine' + (1 − α)·lexical' (no effect on vector or lexical). */
  vectorShare: number;
  timeFilter: boolean;
  /**
   * Floors of the scaled ranges (recency: the decay over 30 units; importance: 5 points), so a
   * small spread stays small (ranking/components.ts). Off = the paper's plain min-max.
   */
  scaleFloors: boolean;
  /**
   * By the question's time focus (focus.ts), lift the newer version of a fact above the older one
   * among the best 10 for a present-state question, the older for a past-state one
   * (ranking/versions.ts). Needs a query vector.
   */
  versions: boolean;
  /**
   * Duplicates (same kind, same description but for case, spacing and punctuation) take one place
   * in the top k, the best-ranked one standing for the others (`duplicates`: how many it folds;
   * ranking/duplicates.ts). Off = every copy ranked on its own, the paper's.
   */
  collapseDuplicates: boolean;
  /**
   * A question naming someone lifts, among the pool the statement ranked, the memories whose
   * description starts with that name (ranking/subjects.ts). English questions only.
   */
  subjects: boolean;
};

/**
 * Named rankings. `paper` is Park et al. 2023 as written (1, 1, 1; 0.99 per hour; cosine).
 * `reference` is the Generative Agents reference code's multipliers (`gw = [0.5, 3, 2]` for
 * recency, relevance, importance in reverie/.../retrieve.py) with the paper's decay and cosine
 * (its per-rank-position recency is the bug we avoid, so only the weights are taken). `balanced`,
 * the service default (docs/adr/0026): what the question is about decides (contextual relevance,
 * α 0.6, and the query's time expressions; windowed finds a little more at ~1.5× the time, beyond
 * what the default may cost); recency and importance only break near-ties (0.1 each, over floored
 * ranges); which version of a fact is current is decided among the best 10 by the question's time
 * focus (`versions`), not by a recency weight over the whole stream; duplicates take one place
 * (`collapseDuplicates`); a question naming someone lifts what that one said or did (`subjects`).
 * Recency weighs a tenth of relevance because a heavier one put months-old evidence out of the
 * top 10 (docs/adr/0026).
 */
export const PRESETS = {
  paper: {
    weights: { recency: 1, importance: 1, relevance: 1 },
    decay: 0.99,
    recencyUnit: "hour",
    relevance: "vector",
    vectorShare: HYBRID_VECTOR_SHARE,
    timeFilter: false,
    scaleFloors: false,
    versions: false,
    collapseDuplicates: false,
    subjects: false,
  },
  reference: {
    weights: { recency: 0.5, importance: 2, relevance: 3 },
    decay: 0.99,
    recencyUnit: "hour",
    relevance: "vector",
    vectorShare: HYBRID_VECTOR_SHARE,
    timeFilter: false,
    scaleFloors: false,
    versions: false,
    collapseDuplicates: false,
    subjects: false,
  },
  balanced: {
    weights: { recency: 0.1, importance: 0.1, relevance: 1 },
    decay: 0.998,
    recencyUnit: "day",
    relevance: "contextual",
    vectorShare: HYBRID_VECTOR_SHARE,
    timeFilter: true,
    scaleFloors: true,
    versions: true,
    collapseDuplicates: true,
    subjects: true,
  },
} as const satisfies Record<string, Ranking>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as [PresetName, ...PresetName[]];

/** The service-wide default: what a retrieve with no ranking fields, for an agent with no defaults, uses. */
export const DEFAULT_PRESET: PresetName = "balanced";

/** Ranking fields as a request or an agent's defaults give them: each may be left out. */
export type RankingChoice = {
  preset?: PresetName;
  weights?: Partial<Weights>;
  decay?: number;
  recencyUnit?: RecencyUnit;
  relevance?: RelevanceKind;
  vectorShare?: number;
  timeFilter?: boolean;
  scaleFloors?: boolean;
  versions?: boolean;
  collapseDuplicates?: boolean;
  subjects?: boolean;
};

/**
 * Where a value in force came from: the request, the agent's defaults, the weights learned from
 * the agent's feedback (weights only), or the preset in force.
 */
export type RankingSource = "request" | "agent" | "learned" | "preset";
/** Where a value other than the weights came from (learning sets weights only). */
export type FieldSource = Exclude<RankingSource, "learned">;

/** The ranking in force and, per field, where it came from (reported in the retrieve response). */
export type ResolvedRanking = Ranking & {
  preset: PresetName;
  /** `preset`: who named the preset (`default` = the service default). */
  source: { preset: "request" | "agent" | "default"; weights: RankingSource } & Record<
    Exclude<keyof Ranking, "weights">,
    FieldSource
  >;
};

/**
 * The ranking for a request: explicit request values win; then, when the request names no
 * preset, the weights learned from the agent's feedback (when given), then the agent's own values; the rest comes from the preset (the request's, else the
 * agent's, else the service default). A request naming a preset asks for that preset, so the
 * agent's individual values are not mixed into it.
 */
export function resolveRanking(
  request: RankingChoice,
  agent: RankingChoice | null,
  learned: Weights | null = null,
): ResolvedRanking {
  const layers: ["request" | "agent" | "learned", RankingChoice][] = [["request", request]];
  // Learned weights (when on and adopted; src/memory/learning) sit between the request's and the
  // agent's own: all three at once, so a request giving one weight still mixes it with them.
  if (request.preset === undefined && learned) layers.push(["learned", { weights: learned }]);
  if (request.preset === undefined && agent) layers.push(["agent", agent]);
  const presetFrom = layers.find(
    (l): l is ["request" | "agent", RankingChoice] => l[0] !== "learned" && l[1].preset !== undefined,
  );
  const preset = presetFrom?.[1].preset ?? DEFAULT_PRESET;
  const base: Ranking = PRESETS[preset];
  const pick = <
    K extends
      | "decay"
      | "recencyUnit"
      | "relevance"
      | "vectorShare"
      | "timeFilter"
      | "scaleFloors"
      | "versions"
      | "collapseDuplicates"
      | "subjects",
  >(
    key: K,
  ): [Ranking[K], FieldSource] => {
    for (const [source, l] of layers) {
      const v = l[key];
      // The learned layer holds weights only, so it never gives this field.
      if (v !== undefined && source !== "learned") return [v as Ranking[K], source];
    }
    return [base[key], "preset"];
  };
  const weights = { ...base.weights };
  let weightsFrom: RankingSource = "preset";
  for (const [source, l] of [...layers].reverse()) {
    const given = Object.entries(l.weights ?? {}).filter(([, v]) => v !== undefined);
    if (given.length > 0) weightsFrom = source;
    Object.assign(weights, Object.fromEntries(given));
  }
  const [decay, decayFrom] = pick("decay");
  const [recencyUnit, unitFrom] = pick("recencyUnit");
  const [relevance, relevanceFrom] = pick("relevance");
  const [vectorShare, vectorShareFrom] = pick("vectorShare");
  const [timeFilter, timeFilterFrom] = pick("timeFilter");
  const [scaleFloors, scaleFloorsFrom] = pick("scaleFloors");
  const [versions, versionsFrom] = pick("versions");
  const [collapseDuplicates, collapseFrom] = pick("collapseDuplicates");
  const [subjects, subjectsFrom] = pick("subjects");
  return {
    preset,
    weights,
    decay,
    recencyUnit,
    relevance,
    vectorShare,
    timeFilter,
    scaleFloors,
    versions,
    collapseDuplicates,
    subjects,
    source: {
      preset: presetFrom?.[0] ?? "default",
      weights: weightsFrom,
      decay: decayFrom,
      recencyUnit: unitFrom,
      relevance: relevanceFrom,
      vectorShare: vectorShareFrom,
      timeFilter: timeFilterFrom,
      scaleFloors: scaleFloorsFrom,
      versions: versionsFrom,
      collapseDuplicates: collapseFrom,
      subjects: subjectsFrom,
    },
  };
}
