import type { Weights } from "../retrieve/ranking/components";

/**
 * What learning left for an agent (agent_settings.learned): the weights in use, their evidence,
 * and the last fit tried (adopted or not). `resetAt`: feedback given before it is not used.
 */
export type LearnedState = {
  /** The adopted weights; null until a fit is adopted (or after a reset). */
  weights: Weights | null;
  /** Evidence of the adopted weights: events fitted on, held-out pairwise accuracy gained, when. */
  events: number | null;
  heldOutGain: number | null;
  fittedAt: string | null;
  /** The last fit tried. */
  lastFit: {
    at: string;
    events: number;
    heldOutEvents: number;
    heldOut: { current: number; proposed: number; gain: number };
    /** Held-out recall of the used memories (absent in fits stored before it was measured). */
    heldOutRecall?: { current: number; proposed: number; gain: number };
    proposed: Weights;
    adopted: boolean;
    refused: string | null;
  } | null;
  resetAt: string | null;
};

export const NO_LEARNING: LearnedState = {
  weights: null,
  events: null,
  heldOutGain: null,
  fittedAt: null,
  lastFit: null,
  resetAt: null,
};

/** The learning switches and guardrails of a deployment (MEMSTREAM_LEARN_*). */
export type LearningConfig = {
  /** Default of every agent's `learnWeights`: learned weights rank its retrieves. */
  enabled: boolean;
  /** Feedback events before the first fit; then a fit per `refitEvery` more. */
  minEvents: number;
  refitEvery: number;
};

/**
 * Off: against the current default it lowered recall on LoCoMo dev's later questions in both halves
 * (docs/adr/0025-learned-weights.md, `npm run eval:learning`); an agent or deployment turns it on.
 */
export const LEARNING_DEFAULTS: LearningConfig = { enabled: false, minEvents: 30, refitEvery: 10 };
