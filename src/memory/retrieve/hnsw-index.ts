import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";

/** How the HNSW index stores vectors: full precision, or half precision (smaller, for ≥ 1k dims). */
export type HnswStorage = "vector" | "halfvec";

/** One per-model HNSW index: partial on (model, dimensions), over a dimension-cast expression. */
export type HnswIndex = { model: string; dimensions: number; storage: HnswStorage };

/** pgvector's HNSW limits: 2,000 dimensions for `vector`, 4,000 for `halfvec`. */
export const HNSW_MAX_DIMENSIONS: Record<HnswStorage, number> = { vector: 2_000, halfvec: 4_000 };

/**
 * The index name encodes storage, dimension and a hash of the model id, so the retrieve path can
 * find it by name (model ids may hold characters an identifier cannot, and be long).
 */
export function hnswIndexName(ix: HnswIndex): string {
  const hash = createHash("sha256").update(ix.model).digest("hex").slice(0, 12);
  return `memory_embeddings_hnsw_${ix.storage}_${ix.dimensions}_${hash}`;
}

/** A SQL string literal (model ids are inlined so the planner can match the partial index). */
export function literal(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** The indexed expression; queries must use exactly this to reach the index. */
export function hnswExpression(ix: Pick<HnswIndex, "dimensions" | "storage">, column = "embedding"): string {
  return `(${column}::${ix.storage}(${Math.trunc(ix.dimensions)}))`;
}

/** `CREATE INDEX CONCURRENTLY` statement for one model (run outside a transaction). */
export function createHnswIndexSql(ix: HnswIndex, opts: { m: number; efConstruction: number }): string {
  const ops = ix.storage === "halfvec" ? "halfvec_cosine_ops" : "vector_cosine_ops";
  return `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${hnswIndexName(ix)} ON memory_embeddings
    USING hnsw (${hnswExpression(ix)} ${ops}) WITH (m = ${Math.trunc(opts.m)}, ef_construction = ${Math.trunc(opts.efConstruction)})
    WHERE model = ${literal(ix.model)} AND dimensions = ${Math.trunc(ix.dimensions)}`;
}

const CACHE_MS = 30_000;
/** A model's valid HNSW index (null: none) and its entries as the statistics count them. */
export type HnswIndexState = { index: HnswIndex | null; tuples: number };
const cache = new WeakMap<object, Map<string, { at: number; state: HnswIndexState }>>();

/**
 * The valid HNSW index for (model, dimensions), or null. Cached per database for 30 s, so a new
 * index is picked up without a restart and the lookup costs nothing on the hot path.
 */
export async function findHnswIndex(db: Db, model: string, dimensions: number): Promise<HnswIndex | null> {
  return (await hnswIndexState(db, model, dimensions)).index;
}

/**
 * findHnswIndex's index with its entries (`pg_class.reltuples`, kept by CREATE INDEX, VACUUM and
 * ANALYZE; 0 when never counted), cached with it: the phased plan's gate reads both on every retrieve.
 */
export async function hnswIndexState(db: Db, model: string, dimensions: number): Promise<HnswIndexState> {
  const key = `${dimensions}:${model}`;
  const perDb = cache.get(db) ?? new Map();
  cache.set(db, perDb);
  const hit = perDb.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.state;
  const candidates = (["vector", "halfvec"] as const).map((storage) => ({ model, dimensions, storage }));
  const names = candidates.map(hnswIndexName);
  // indisvalid: a CONCURRENTLY build in progress (or failed) must not be used.
  const rows = await queryRows<{ name: string; tuples: number | null }>(
    db,
    sql`SELECT c.relname AS name, greatest(c.reltuples, 0) AS tuples FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indisvalid AND c.relname IN (${sql.join(
          names.map((n) => sql`${n}`),
          sql`, `,
        )})`,
  );
  const index = candidates.find((c) => rows.some((r) => r.name === hnswIndexName(c))) ?? null;
  const row = index ? rows.find((r) => r.name === hnswIndexName(index)) : undefined;
  const state = { index, tuples: Number(row?.tuples ?? 0) };
  perDb.set(key, { at: Date.now(), state });
  return state;
}

/** Forgets cached lookups (after creating or dropping an index in-process). */
export function forgetHnswIndexes(db: Db): void {
  cache.delete(db);
}
