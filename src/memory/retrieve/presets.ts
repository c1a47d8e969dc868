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
};

/**
 * Named rankings. `paper` is Park et al. 2023 as written (1, 1, 1; 0.99 per hour; cosine).
 * `reference` is the Generative Agents reference code's multipliers (`gw = [0.5, 3, 2]` for
 * recency, relevance, importance in reverie/.../retrieve.py) with the paper's decay and cosine
 * (its per-rank-position recency is the bug we avoid, so only the weights are taken).
 * `balanced`, the service default, was chosen on LoCoMo dev and the knowledge-update test
 * (docs/adr/0014-default-ranking.md, bench/tune-frontier.ts): relevance 2.25× recency, 0.998 per
 * day, contextual relevance leaning on the vector (α 0.85: BM25 favours an old fact that repeats
 * the question's words over the newer one that replaced it), and the query's time expressions.
 */
export const PRESETS = {
  paper: {
    weights: { recency: 1, importance: 1, relevance: 1 },
    decay: 0.99,
    recencyUnit: "hour",
    relevance: "vector",
    vectorShare: HYBRID_VECTOR_SHARE,
    timeFilter: false,
  },
  reference: {
    weights: { recency: 0.5, importance: 2, relevance: 3 },
    decay: 0.99,
    recencyUnit: "hour",
    relevance: "vector",
    vectorShare: HYBRID_VECTOR_SHARE,
    timeFilter: false,
  },
  balanced: {
    weights: { recency: 1, importance: 0.5, relevance: 2.25 },
    decay: 0.998,
    recencyUnit: "day",
    relevance: "contextual",
    vectorShare: 0.85,
    timeFilter: true,
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
  const pick = <K extends "decay" | "recencyUnit" | "relevance" | "vectorShare" | "timeFilter">(
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
  return {
    preset,
    weights,
    decay,
    recencyUnit,
    relevance,
    vectorShare,
    timeFilter,
    source: {
      preset: presetFrom?.[0] ?? "default",
      weights: weightsFrom,
      decay: decayFrom,
      recencyUnit: unitFrom,
      relevance: relevanceFrom,
      vectorShare: vectorShareFrom,
      timeFilter: timeFilterFrom,
    },
  };
}
