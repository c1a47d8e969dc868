import { COMPONENTS, type Weights } from "../retrieve/ranking/components";
import { weightedSum } from "../retrieve/ranking/score";
import { type LoggedCandidate, scoreUnder } from "./log";
import { wasReturned } from "./logged-candidate";

/**
 * Fitting an agent's weights to its feedback (docs/adr/0025-learned-weights.md). Pure: the job
 * reads the events, this decides, the job stores the decision.
 *
 * An event is one retrieve with feedback: the memories it returned with their scaled components,
 * which the agent used and which it did not. Every (used, unused) pair of an event says "rank
 * this one above that one". Weights are compared as shares of their sum, which is kept (the
 * ranking only depends on ratios, and scores stay on the scale the agent knows).
 */
export type FeedbackEvent = {
  candidates: LoggedCandidate[];
  used: string[];
  /** null: every candidate not used. */
  unused: string[] | null;
};

export type FitGuardrails = {
  /** Feedback events before a fit is tried. */
  minEvents: number;
  /** The newest share of the events held out to judge a fit (time order: trained on the older). */
  heldOutShare: number;
  /** Held-out pairwise accuracy the new weights must gain over the current ones to be adopted. */
  margin: number;
  /** Largest change of one weight's share in one fit. */
  maxStep: number;
  /** No weight's share below this. */
  floor: number;
};

export const FIT_DEFAULTS: FitGuardrails = {
  minEvents: 30,
  heldOutShare: 0.3,
  margin: 0.02,
  maxStep: 0.25,
  floor: 0.05,
};

/** Step of the grid of shares the fit searches (1/40: 861 points on the simplex). */
const GRID = 40;
/** Sharpness of the pairwise logistic loss on score differences in shares (scores in [0, 1]). */
const SHARPNESS = 10;

export type FitResult = {
  /** The weights to adopt (scaled to the current sum), or null when the guardrails refused. */
  weights: Weights | null;
  /** The unbounded optimum on the training events, as shares. */
  optimum: Weights;
  /** The proposal after the step bound, scaled to the current sum. */
  proposed: Weights;
  events: number;
  trainEvents: number;
  heldOutEvents: number;
  /** Held-out pairwise accuracy of the current and of the proposed weights. */
  heldOut: { current: number; proposed: number; gain: number };
  /** Held-out recall of the used memories (recallOfUsed) of the current and of the proposed weights. */
  heldOutRecall: { current: number; proposed: number; gain: number };
  /** Why it was refused, when it was. */
  refused?: string;
};

type Pair = [number, number, number]; // Δ recency', Δ importance', Δ relevance' (used − unused)

/** The (used − unused) component differences of every pair of the events. */
export function pairsOf(events: FeedbackEvent[]): Pair[][] {
  return events.map((e) => {
    const used = new Set(e.used);
    // Not given: every memory returned and not used (one ranked below the cut was never seen).
    const unused = new Set(e.unused ?? e.candidates.filter(wasReturned).map((c) => c[0]));
    const pos = e.candidates.filter((c) => used.has(c[0]));
    const neg = e.candidates.filter((c) => unused.has(c[0]) && !used.has(c[0]));
    return pos.flatMap((p) => neg.map((n): Pair => [p[1] - n[1], p[2] - n[2], p[3] - n[3]]));
  });
}

/** score(used) − score(unused) under `w`: the ranking module's sum of the differences (it is linear). */
const differenceUnder = (w: Weights, d: Pair): number =>
  weightedSum(w, { recency: d[0], importance: d[1], relevance: d[2] });

/** Share of pairs ranked right (ties half), averaged over the events that have pairs; NaN without any. */
export function pairwiseAccuracy(pairs: Pair[][], w: Weights): number {
  let sum = 0;
  let n = 0;
  for (const ps of pairs) {
    if (ps.length === 0) continue;
    let right = 0;
    for (const d of ps) {
      const s = differenceUnder(w, d);
      right += s > 1e-12 ? 1 : s < -1e-12 ? 0 : 0.5;
    }
    sum += right / ps.length;
    n++;
  }
  return n === 0 ? Number.NaN : sum / n;
}

/**
 * Recall of the used memories under `w`, averaged over the events with any: of each event's
 * logged candidates (returned and below the cut), the top R under `w` (R = how many it returned)
 * and the share of its used memories among them. What the agent feels: whether what it needed
 * comes back. NaN without an event that has a used memory.
 */
export function recallOfUsed(events: FeedbackEvent[], w: Weights): number {
  let sum = 0;
  let n = 0;
  for (const e of events) {
    if (e.used.length === 0) continue;
    const top = new Set(
      rankUnder(w, e.candidates)
        .slice(0, e.candidates.filter(wasReturned).length)
        .map((c) => c[0]),
    );
    sum += e.used.filter((id) => top.has(id)).length / e.used.length;
    n++;
  }
  return n === 0 ? Number.NaN : sum / n;
}

/** Mean pairwise logistic loss of shares `w` (each event weighs the same, whatever its pairs). */
function loss(pairs: Pair[][], w: Weights): number {
  let sum = 0;
  let n = 0;
  for (const ps of pairs) {
    if (ps.length === 0) continue;
    let l = 0;
    for (const d of ps) {
      const s = SHARPNESS * differenceUnder(w, d);
      l += s > 30 ? Math.exp(-s) : Math.log1p(Math.exp(-s));
    }
    sum += l / ps.length;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

const sumOf = (w: Weights) => w.recency + w.importance + w.relevance;
/** Every weight times `k` (the same ranking: only ratios matter). */
const scaled = (w: Weights, k: number): Weights =>
  Object.fromEntries(COMPONENTS.map((c) => [c, k * w[c]])) as Weights;

/** Shares on the grid with every share ≥ floor, the one of least training loss (first of equals). */
export function bestShares(pairs: Pair[][], floor: number): Weights {
  let best: Weights = { recency: 1 / 3, importance: 1 / 3, relevance: 1 / 3 };
  let bestLoss = Number.POSITIVE_INFINITY;
  for (let r = 0; r <= GRID; r++)
    for (let i = 0; r + i <= GRID; i++) {
      const w = { recency: r / GRID, importance: i / GRID, relevance: (GRID - r - i) / GRID };
      if (COMPONENTS.some((c) => w[c] < floor - 1e-9)) continue;
      const l = loss(pairs, w);
      if (l < bestLoss - 1e-12) {
        bestLoss = l;
        best = w;
      }
    }
  return best;
}

/**
 * Fits weights to `events` (oldest first) from `current` (the weights in force): the training
 * part's least-loss shares, moved toward from the current shares by at most `maxStep` per
 * weight, adopted only when the held-out part's pairwise accuracy gains `margin` or more and its
 * recall of the used memories (recallOfUsed) rises.
 */
export function fitWeights(
  events: FeedbackEvent[],
  current: Weights,
  g: FitGuardrails = FIT_DEFAULTS,
): FitResult {
  const total = sumOf(current);
  const now = scaled(current, 1 / total);
  const pairs = pairsOf(events);
  const withPairs = pairs.filter((p) => p.length > 0).length;
  const cut = Math.max(1, Math.round(events.length * (1 - g.heldOutShare)));
  const train = pairs.slice(0, cut);
  const held = pairs.slice(cut);
  const optimum = bestShares(train, g.floor);
  const far = Math.max(...COMPONENTS.map((c) => Math.abs(optimum[c] - now[c])));
  const t = far > g.maxStep ? g.maxStep / far : 1;
  const step: Weights = {
    recency: now.recency + t * (optimum.recency - now.recency),
    importance: now.importance + t * (optimum.importance - now.importance),
    relevance: now.relevance + t * (optimum.relevance - now.relevance),
  };
  const proposed = scaled(step, total);
  const currentAcc = pairwiseAccuracy(held, now);
  const proposedAcc = pairwiseAccuracy(held, step);
  const gain = proposedAcc - currentAcc;
  const heldEvents = events.slice(cut);
  const recallNow = recallOfUsed(heldEvents, now);
  const recallProposed = recallOfUsed(heldEvents, step);
  const recallGain = recallProposed - recallNow;
  const result = {
    optimum,
    proposed,
    events: events.length,
    trainEvents: cut,
    heldOutEvents: events.length - cut,
    heldOut: { current: currentAcc, proposed: proposedAcc, gain },
    heldOutRecall: { current: recallNow, proposed: recallProposed, gain: recallGain },
  };
  const refused =
    events.length < g.minEvents
      ? `${events.length} feedback events, fewer than ${g.minEvents}`
      : withPairs === 0
        ? "no event has both a used and an unused memory"
        : Number.isNaN(gain)
          ? "no held-out event has both a used and an unused memory"
          : !(gain >= g.margin)
            ? `held-out pairwise accuracy gained ${gain.toFixed(3)}, less than the margin ${g.margin}`
            : // The quantity the agent feels: a fit that does not bring back more of what it used is not adopted.
              !(recallGain > 1e-9)
              ? `held-out recall of the used memories ${Number.isNaN(recallGain) ? "unknown (no held-out event used a memory)" : `changed by ${recallGain.toFixed(3)}`}: adopted only when it rises`
              : undefined;
  return refused ? { ...result, weights: null, refused } : { ...result, weights: proposed };
}

/** Ranks an event's candidates under `w`, best first (the ranking module's sum). */
export const rankUnder = (w: Weights, candidates: LoggedCandidate[]): LoggedCandidate[] =>
  [...candidates].sort((a, b) => scoreUnder(w, b) - scoreUnder(w, a));
