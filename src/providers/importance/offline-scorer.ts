import type { Embedder, ImportanceScorer } from "../types.js";
import { cosine } from "../vector.js";
import type { ImportanceExamples } from "./examples.js";
import { BUILTIN_MUNDANE, BUILTIN_POIGNANT } from "./offline-examples.js";

export type OfflineImportanceScorerOptions = { embedder: Embedder; examples?: ImportanceExamples };

/**
 * Linear map from the similarity margin to the 1..10 scale: score = round(OFFSET + SLOPE × margin),
 * clamped. Calibrated with `use-lite-512` on obvious cases (docs/adr/0002): mundane margins
 * reach at most −0.058 (→ 3) and poignant ones at least +0.078 (→ 7).
 * The band between is narrow, so margins below −0.13 give 1 and above +0.19 give 10.
 * Other embedders need other figures.
 */
const OFFSET = 4.7;
const SLOPE = 25;

/**
 * Importance without an LLM, approximate by design: the description is embedded and compared
 * (cosine) to anchor events; margin = max similarity to a poignant anchor − max similarity to a
 * mundane one, mapped linearly to 1..10. The built-in anchors plus the deployment's examples
 * are embedded once per scorer (memoized; a failed attempt is retried on the next call).
 * Good at telling "brushed my teeth" from "my mother died"; it does not grade the middle finely.
 */
export function createOfflineImportanceScorer(opts: OfflineImportanceScorerOptions): ImportanceScorer {
  const mundane = [...BUILTIN_MUNDANE, ...(opts.examples?.mundane ?? [])];
  const poignant = [...BUILTIN_POIGNANT, ...(opts.examples?.poignant ?? [])];
  let anchors: Promise<{ mundane: number[][]; poignant: number[][] }> | null = null;
  const loadAnchors = () => {
    anchors ??= opts.embedder
      .embed([...mundane, ...poignant])
      .then((vs) => ({ mundane: vs.slice(0, mundane.length), poignant: vs.slice(mundane.length) }))
      .catch((err: unknown) => {
        anchors = null;
        throw err;
      });
    return anchors;
  };

  return {
    // Deployment examples change scores, so they show in the id: stats from differently anchored runs differ.
    id: opts.examples
      ? `offline:examples-v1+${mundane.length - BUILTIN_MUNDANE.length}m${poignant.length - BUILTIN_POIGNANT.length}p`
      : "offline:examples-v1",
    async score(descriptions: string[]): Promise<number[]> {
      if (descriptions.length === 0) return [];
      const a = await loadAnchors();
      const vectors = await opts.embedder.embed(descriptions);
      return vectors.map((v) => marginToScore(maxSimilarity(v, a.poignant) - maxSimilarity(v, a.mundane)));
    },
  };
}

/** Maps a similarity margin (poignant − mundane, in -2..2) to an integer 1..10. */
export function marginToScore(margin: number): number {
  return Math.min(10, Math.max(1, Math.round(OFFSET + SLOPE * margin)));
}

function maxSimilarity(v: number[], set: number[][]): number {
  let best = -1;
  for (const s of set) best = Math.max(best, cosine(v, s));
  return best;
}
