/**
 * Where relevance comes from: `vector` = cosine similarity to the query vector (the paper's);
 * `lexical` = BM25 of the query's words; `hybrid` = both, fused; `contextual` = hybrid plus a
 * share of the better of the memory's two neighbours in the stream (conversation context);
 * `windowed` = contextual whose lexical part is BM25F over the memory's and its neighbours' words.
 */
export type RelevanceKind = "vector" | "lexical" | "hybrid" | "contextual" | "windowed";
export const RELEVANCE_KINDS = [
  "vector",
  "lexical",
  "hybrid",
  "contextual",
  "windowed",
] as const satisfies RelevanceKind[];

/** The query vector as pgvector text, its model and dimension. */
export type QueryVector = { vector: string; model: string; dimensions: number };

/** A vector computed at retrieve time for a pending memory, as pgvector text. */
export type FreshVector = { id: string; vector: string; dimensions: number };

/**
 * Lexical relevance needs the query's text; absent means `vector` relevance. `vectorShare` is
 * hybrid's α (default HYBRID_VECTOR_SHARE); a ranking may set its own (presets.ts).
 */
export type LexicalQuery = { kind: Exclude<RelevanceKind, "vector">; text: string; vectorShare?: number };

/** BM25's textbook constants (Robertson; Lucene's defaults): tuning them did not pay (docs/adr/0008). */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * Share of the vector part in hybrid relevance: α·cosine' + (1 − α)·lexical'; the middle of a flat
 * plateau (docs/adr/0008). The request field `vectorShare` and the presets may set another.
 */
export const HYBRID_VECTOR_SHARE = 0.6;

/**
 * Contextual relevance: hybrid' + this share × max(hybrid' of the previous and the next memory
 * of the candidate set by createdAt). A turn that answers a question is often the reply to, or
 * followed by, the turn that names its subject (docs/adr/0008, docs/adr/0014).
 */
export const CONTEXT_SHARE = 0.7;

/**
 * Neighbours (contextual and windowed relevance) are memories of the same conversation: the
 * previous or next memory by createdAt counts only when created at most this many seconds apart:
 * a memory written days later is no context, and lifting by it put an unrelated memory first
 * (docs/adr/0026).
 */
export const NEIGHBOUR_GAP_S = 3_600;

/**
 * Windowed relevance = contextual relevance whose lexical part is BM25F over the memory's text
 * and, as a second field, its neighbours' text: up to CONTEXT_FIELD_REACH memories either side
 * (of the same run, NEIGHBOUR_GAP_S), the nearest at weight CONTEXT_FIELD_WEIGHT, each place
 * further × CONTEXT_FIELD_DECAY (bm25.ts). The answering turn often shares words only with one a
 * few turns earlier that named the subject, hence five places, not one (docs/adr/0026). Opt-in,
 * not the default's: it costs ~1.4× contextual's time (docs/adr/0008).
 */
export const CONTEXT_FIELD_WEIGHT = 0.5;
export const CONTEXT_FIELD_REACH = 5;
export const CONTEXT_FIELD_DECAY = 0.7;

/**
 * Windowed relevance compares meaning without the question form. A sentence encoder puts a
 * question near other questions, so for a question the memories that ask something (the other
 * speaker's "What got you into running?") outrank the statement that answers it. The form is
 * a direction of the agent's stream (its newest FORM_SAMPLE memories): from the mean of its
 * statements' unit vectors to the mean of its questions' (a memory asks when its text ends with a
 * question mark, closing quotes and brackets aside: ASKS_PATTERN). The cosine is taken with that
 * direction projected out of the memory's and the query's unit vectors:
 * (cos − q·f · d·f) / √((1 − (q·f)²)(1 − (d·f)²)). With
 * fewer than FORM_MIN memories of either form the direction is not estimated and the cosine is
 * the plain one. A small gain, kept because it is bounded (FORM_SAMPLE; docs/adr/0026).
 */
export const ASKS_PATTERN = "[?？][\"'”’)\\]]*\\s*$";
export const FORM_MIN = 10;
/**
 * The direction is estimated from the agent's newest FORM_SAMPLE memories (those with a vector),
 * so its cost per query is bounded whatever the stream's size; a direction needs no more
 * (docs/adr/0026).
 */
export const FORM_SAMPLE = 2_000;

/** The neighbours' field weights, nearest first (one per place away, CONTEXT_FIELD_REACH of them). */
export const CONTEXT_FIELD_WEIGHTS: readonly number[] = Array.from(
  { length: CONTEXT_FIELD_REACH },
  (_, i) => CONTEXT_FIELD_WEIGHT * CONTEXT_FIELD_DECAY ** i,
);
