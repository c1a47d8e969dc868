import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { Invalid } from "../../lib/errors";
import type { FastThresholds } from "./fast-thresholds";
import { findHnswIndex, type HnswIndex, hnswIndexName } from "./hnsw-index";
import type { RankParams } from "./ranking-sql";

/** `exact` ranks by the formula; `fast` runs the threshold search over indexes; `auto` = exact. */
export type RetrieveMode = "auto" | "exact" | "fast";

export type ModeChoice = { mode: "exact" } | { mode: "fast"; index: HnswIndex | null };

/**
 * Decides how to rank. `auto` always ranks exactly: the fast path is a threshold search that is
 * exact only as far as HNSW returns the nearest vectors in order and finds the farthest one; on
 * random 512-d vectors at 100k it did not, and its recall@10 against exact stayed below 0.99
 * (docs/adr/0020-threshold-retrieval.md), so a caller gets it only by asking for `fast`. Even
 * then a stream below `thresholds` ranks exactly (fast-thresholds.ts): there the exact ranking
 * is the faster one, or the filtered HNSW walk the search relies on misses the agent's vectors.
 */
export async function chooseMode(
  db: Parameters<typeof findHnswIndex>[0],
  p: RankParams,
  requested: RetrieveMode,
  thresholds: FastThresholds,
): Promise<ModeChoice> {
  if (requested !== "fast") return { mode: "exact" };
  // Lexical and hybrid relevance rank exactly: there is no lexical candidate list in the fast
  // path yet, and silently dropping the words would answer a different question.
  if (p.lexical) {
    throw new Invalid(`mode fast supports only relevance vector; use exact or auto`, { field: "mode" });
  }
  if (p.sections) {
    throw new Invalid("mode fast does not support sections; use exact or auto", { field: "mode" });
  }
  if (Object.values(p.filters).some((v) => v !== undefined)) {
    throw new Invalid("mode fast does not support kinds or filters; use exact or auto", { field: "mode" });
  }
  const index = p.query ? await findHnswIndex(db, p.query.model, p.query.dimensions) : null;
  if (p.query && !index) {
    throw new Invalid(
      `mode fast needs an HNSW index for model ${p.query.model} (${p.query.dimensions} dimensions); create it with npm run index:create`,
      { field: "mode" },
    );
  }
  return (await worthSearching(db, p, index, thresholds)) ? { mode: "fast", index } : { mode: "exact" };
}

/**
 * Whether the stream is large enough for the threshold search: at least `minStream` vectors of
 * the query's model (memories, without a query) and `minShare` of the index's entries as its
 * statistics count them (`reltuples`, kept by CREATE INDEX, VACUUM and ANALYZE). One statement;
 * the count stops at the bound, so it reads at most that many index entries.
 */
async function worthSearching(
  db: Parameters<typeof findHnswIndex>[0],
  p: RankParams,
  index: HnswIndex | null,
  t: FastThresholds,
): Promise<boolean> {
  const indexed = index
    ? sql`(SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = to_regclass(${hnswIndexName(index)}))`
    : sql`0`;
  const rows = p.query
    ? sql`SELECT 1 FROM memory_embeddings e WHERE e.agent_id = ${p.agentId} AND e.model = ${p.query.model}
        AND e.dimensions = ${p.query.dimensions}`
    : sql`SELECT 1 FROM memories WHERE agent_id = ${p.agentId}`;
  const [row] = await queryRows<{ worth: boolean }>(
    db,
    sql`WITH need AS (
          SELECT greatest(${t.minStream}::int, ceil(${t.minShare}::float8 * coalesce(${indexed}, 0)))::int AS n
        )
        SELECT (SELECT count(*) FROM (${rows} LIMIT (SELECT n FROM need)) s) >= (SELECT n FROM need) AS worth`,
  );
  return row?.worth ?? false;
}
