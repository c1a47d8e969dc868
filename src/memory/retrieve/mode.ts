import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { Invalid } from "../../lib/errors";
import { findHnswIndex, type HnswIndex } from "./hnsw-index";
import type { RankParams } from "./ranking-sql";

/** `auto` picks `fast` for large streams with an HNSW index, else `exact`. */
export type RetrieveMode = "auto" | "exact" | "fast";

/**
 * Default stream size above which `auto` uses the fast path. Below it the exact scan is cheap
 * (≤ ~30 ms at 512-d), and filtered HNSW is at its weakest for a small agent in a big table.
 */
export const DEFAULT_FAST_THRESHOLD = 50_000;

export type ModeChoice = { mode: "exact" } | { mode: "fast"; index: HnswIndex | null };

const LARGE_CACHE_MS = 60_000;
const large = new WeakMap<object, Map<string, number>>();

/** Decides how to rank: the requested mode, or for `auto` the stream's size and the index. */
export async function chooseMode(
  db: Db,
  p: RankParams,
  requested: RetrieveMode,
  threshold: number,
): Promise<ModeChoice> {
  if (requested === "exact") return { mode: "exact" };
  // Lexical and hybrid relevance rank exactly: there is no lexical candidate list in the fast
  // path yet, and silently dropping the words would answer a different question.
  if (p.lexical) {
    if (requested === "fast") {
      throw new Invalid(`mode fast supports only relevance vector; use exact or auto`, { field: "mode" });
    }
    return { mode: "exact" };
  }
  const filtered = Object.values(p.filters).some((v) => v !== undefined);
  const index = p.query ? await findHnswIndex(db, p.query.model, p.query.dimensions) : null;
  if (requested === "fast") {
    if (filtered)
      throw new Invalid("mode fast does not support kinds or filters; use exact or auto", { field: "mode" });
    if (p.query && !index) {
      throw new Invalid(
        `mode fast needs an HNSW index for model ${p.query.model} (${p.query.dimensions} dimensions); create it with npm run index:create`,
        { field: "mode" },
      );
    }
    return { mode: "fast", index };
  }
  if (filtered || (p.query && !index)) return { mode: "exact" };
  return (await isLarge(db, p, threshold)) ? { mode: "fast", index } : { mode: "exact" };
}

/**
 * Whether the agent has more than `threshold` candidates: a count that stops at threshold + 1
 * (an index-only scan of the vectors table, which is rarely updated). A "large" answer is
 * cached for a minute, since streams rarely shrink; a "small" one is recounted every time.
 */
async function isLarge(db: Db, p: RankParams, threshold: number): Promise<boolean> {
  const key = `${p.query?.model ?? ""}\u0000${p.agentId}`;
  const perDb = large.get(db) ?? new Map<string, number>();
  large.set(db, perDb);
  const at = perDb.get(key);
  if (at !== undefined && Date.now() - at < LARGE_CACHE_MS) return true;
  const source = p.query
    ? sql`SELECT 1 FROM memory_embeddings WHERE agent_id = ${p.agentId} AND model = ${p.query.model} LIMIT ${threshold + 1}`
    : sql`SELECT 1 FROM memories WHERE agent_id = ${p.agentId} LIMIT ${threshold + 1}`;
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (${source}) s`);
  const isBig = (row?.n ?? 0) > threshold;
  if (isBig) perDb.set(key, Date.now());
  else perDb.delete(key);
  return isBig;
}
