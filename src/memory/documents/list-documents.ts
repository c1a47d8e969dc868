import { and, asc, eq, gt } from "drizzle-orm";
import { documents } from "../../db/schema";
import type { MemoryDeps } from "../deps";
import type { DocumentFormat } from "./split";

export type DocumentSummary = {
  source: string;
  title: string | null;
  format: DocumentFormat;
  sections: number;
  tokens: number;
  importedAt: string;
};

/** An agent's documents by source, `limit` at a time after `after` (keyset). */
export async function listDocuments(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  opts: { limit: number; after?: string },
): Promise<{ documents: DocumentSummary[]; next: string | null }> {
  const conds = [eq(documents.agentId, agentId)];
  if (opts.after !== undefined) conds.push(gt(documents.source, opts.after));
  const rows = await deps.db
    .select()
    .from(documents)
    .where(and(...conds))
    .orderBy(asc(documents.source))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  return {
    documents: page.map((r) => ({
      source: r.source,
      title: r.title,
      format: r.format as DocumentFormat,
      sections: r.sections,
      tokens: r.tokens,
      importedAt: r.importedAt.toISOString(),
    })),
    next: rows.length > opts.limit ? (page.at(-1)?.source ?? null) : null,
  };
}
