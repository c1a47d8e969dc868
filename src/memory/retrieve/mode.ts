import { Invalid } from "../../lib/errors";
import { findHnswIndex, type HnswIndex } from "./hnsw-index";
import type { RankParams } from "./ranking-sql";

/** `exact` ranks by the formula; `fast` runs the threshold search over indexes; `auto` = exact. */
export type RetrieveMode = "auto" | "exact" | "fast";

export type ModeChoice = { mode: "exact" } | { mode: "fast"; index: HnswIndex | null };

/**
 * Decides how to rank. `auto` always ranks exactly: the fast path is a threshold search that is
 * exact only as far as HNSW returns the nearest vectors in order and finds the farthest one; on
 * random 512-d vectors at 100k it did not, and its recall@10 against exact stayed below 0.99
 * (docs/adr/0020-threshold-retrieval.md), so a caller gets it only by asking for `fast`.
 */
export async function chooseMode(
  db: Parameters<typeof findHnswIndex>[0],
  p: RankParams,
  requested: RetrieveMode,
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
  return { mode: "fast", index };
}
