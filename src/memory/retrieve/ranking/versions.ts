import { type SQL, sql } from "drizzle-orm";
import type { QueryVector } from "./relevance/kinds";

/**
 * Versions of a fact, by the question's time focus (focus.ts; docs/adr/0026). Which version of a
 * fact is current is decided among the few memories that already rank best, not by a recency
 * weight over the whole stream (that weight pushed months-old evidence out of the top 10):
 * - `newer` (a present-state question, "Where does Alice live?"): among the VERSION_TOP best by
 *   score, a memory whose vector is at least VERSION_SIMILARITY cosine-similar to a better-scored,
 *   *older* one takes that one's score: "Alice moved to Berlin" rises to "Alice lives in Paris",
 *   which repeats the question's words;
 * and equal scores go newest first. Past-state questions lift nothing (focus.ts `liftOf`: lifting
 * the older version did not pay, docs/adr/0026). The lift is reported per memory (`scores.lift`,
 * the score gained) and `score` = Σ w·c' + lift. Memories outside the best VERSION_TOP are not moved, so
 * the set of the top VERSION_TOP is the formula's; only its order changes. A memory without a
 * vector of the query's model (stored, or embedded at retrieve time) takes no part.
 *
 * Supersession as data (`newer` only; docs/adr/0029): a memory of the best VERSION_TOP that was
 * superseded (`superseded_by`) hands its (lifted) score to its replacement — the last candidate
 * along its chain of replacements, at most REPLACEMENT_HOPS away — which joins the ranking if it
 * was not among the best, and the superseded memory ranks right below it (at equal scores a
 * memory with a replacement among the candidates comes after every one without). Past-state and
 * other questions rank superseded memories by the formula alone.
 */
export type VersionLift = "newer";

/** How many of the best memories are compared (the top 10 a caller usually asks for). */
export const VERSION_TOP = 10;

/**
 * Cosine similarity from which two memories count as versions of one fact: with the offline
 * embedder, where versions of a fact and unrelated memories about the same person cross
 * (docs/adr/0026). A stronger embedder separates them better.
 */
export const VERSION_SIMILARITY = 0.55;

/** How far along a chain of replacements (v1 → v2 → v3 …) a superseded memory's replacement is sought. */
export const REPLACEMENT_HOPS = 4;

/**
 * The lifted score of each of the best VERSION_TOP rows of `ranked` (id, score column `base`),
 * as a CTE `lifted (id, score)`; `ranked` must be ordered best first and limited by the caller.
 */
export function liftedCte(
  p: { agentId: string; query: QueryVector; lift: VersionLift; fresh?: readonly unknown[] },
  ranked: string,
): SQL {
  const q = p.query;
  // A pending memory embedded at retrieve time (the statement's `fresh` CTE) compares by that vector.
  const fresh = (p.fresh?.length ?? 0) > 0;
  return sql`
    best AS MATERIALIZED (
      SELECT r.id, r.base, m.created_at, m.superseded_by, ${fresh ? sql`coalesce(e.embedding, fresh.embedding)` : sql`e.embedding`} AS embedding
      FROM (SELECT id, base FROM ${sql.raw(ranked)} ORDER BY base DESC, id COLLATE "C" LIMIT ${VERSION_TOP}) r
      JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = r.id
      LEFT JOIN memory_embeddings e ON e.agent_id = ${p.agentId} AND e.memory_id = r.id
        AND e.model = ${q.model} AND e.dimensions = ${q.dimensions}
      ${fresh ? sql`LEFT JOIN fresh ON fresh.id = r.id` : sql``}
    ),
    lifted AS (
      SELECT x.id, greatest(x.base, (
        SELECT max(y.base) FROM best y
        WHERE y.base > x.base AND y.created_at < x.created_at
          AND 1 - (x.embedding <=> y.embedding) >= ${sql.raw(`${VERSION_SIMILARITY}::float8`)}
      )) AS score
      FROM best x
    ),`;
}

/**
 * A memory's chain of replacements, walked by primary key from the row `from` (with a
 * `superseded_by` column): `joins` (memories m1 … m{REPLACEMENT_HOPS}, LEFT JOINed) and `ids`,
 * the array of their ids, nearest first (NULL past the chain's end).
 */
export function replacementChain(agentId: string, from: string): { joins: SQL; ids: SQL } {
  const hops = Array.from({ length: REPLACEMENT_HOPS }, (_, i) => i + 1);
  const joins = hops.map(
    (i) => sql`
      LEFT JOIN memories m${sql.raw(String(i))} ON m${sql.raw(String(i))}.agent_id = ${agentId}
        AND m${sql.raw(String(i))}.id = ${sql.raw(i === 1 ? `${from}.superseded_by` : `m${i - 1}.superseded_by`)}`,
  );
  return { joins: sql.join(joins, sql``), ids: sql.raw(`ARRAY[${hops.map((i) => `m${i}.id`).join(", ")}]`) };
}

/**
 * For a `newer` lift, after liftedCte: `repl (old, id, score)`, each superseded memory of `best`
 * with its replacement (the last memory along its chain of at most REPLACEMENT_HOPS replacements
 * that is a row of `cand`, i.e. a candidate) and its lifted score, and `replaced (id, score)`,
 * each replacement with the best score handed to it. The chain is walked by
 * primary key; the candidate set is read only when a superseded memory is among the best (a
 * one-time filter), so a ranking without supersession pays two empty CTEs.
 */
export function replacedCte(p: { agentId: string }): SQL {
  const { joins, ids } = replacementChain(p.agentId, "x");
  return sql`
    chain AS MATERIALIZED (
      SELECT x.id AS old, coalesce(l.score, x.base) AS score, ${ids} AS ids
      FROM best x JOIN lifted l ON l.id = x.id ${joins}
      WHERE x.superseded_by IS NOT NULL
    ),
    present AS MATERIALIZED (
      SELECT c.id FROM cand c
      WHERE (SELECT count(*) FROM chain) > 0 AND c.id IN (SELECT unnest(ids) FROM chain)
    ),
    repl AS MATERIALIZED (
      SELECT * FROM (
        SELECT ch.old, ch.score, (
          SELECT i.id FROM unnest(ch.ids) WITH ORDINALITY AS i(id, n)
          WHERE i.id IN (SELECT id FROM present) ORDER BY i.n DESC LIMIT 1
        ) AS id
        FROM chain ch
      ) r WHERE r.id IS NOT NULL
    ),
    replaced AS (SELECT id, max(score) AS score FROM repl GROUP BY id),`;
}
