import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { textArray } from "../../db/text-array";
import { FIELDS, target } from "../enrichment/fields";
import { expandedRelevance } from "../retrieve/ranking/expanded";
import type { QueryVector } from "../retrieve/ranking/relevance/kinds";
import type { ExpandedMemory } from "../types";
import { ARCHIVED_COLUMNS, type ArchivedRecord, toArchivedMemory } from "./archived";

/** Members restored per summary by default, and at most. */
export const EXPAND_DEFAULTS = { perSummary: 3, max: 20 } as const;

/**
 * The archived members of summaries `summaryIds`, best first per summary, at most `perSummary`
 * each. Best by the hybrid relevance the default ranks with (ranking/relevance/kinds.ts): α × the
 * cosine to the query plus (1 − α) × the words shared with `text` (ts_rank_cd, any word), each
 * scaled over the summary's members; without a query vector of their model the words alone, and
 * without either, importance then recency. One statement over the archive's (agent, summary)
 * index: a summary has at most its group's size of members, so the work is bounded by k × groupMax.
 */
export async function expandSummaries(
  db: Pick<Db, "execute">,
  agentId: string,
  summaryIds: readonly string[],
  query: QueryVector | null,
  perSummary: number,
  text?: string,
): Promise<Map<string, ExpandedMemory[]>> {
  const out = new Map<string, ExpandedMemory[]>();
  if (summaryIds.length === 0 || perSummary <= 0) return out;
  const similarity = query
    ? sql`CASE WHEN a.embedding_model = ${query.model} AND vector_dims(a.embedding) = ${query.dimensions}
        THEN 1 - (a.embedding <=> ${query.vector}::vector) END`
    : sql`NULL::float8`;
  // The members' and the query's English lexemes, for BM25 over the members expanded here.
  const words = text?.trim()
    ? sql`to_tsvector('english'::regconfig, a.description)::text AS tsv,
        plainto_tsquery('english'::regconfig, ${text})::text AS q`
    : sql`''::text AS tsv, ''::text AS q`;
  const read = await queryRows<ArchivedRecord & { similarity: number | null; tsv: string; q: string }>(
    db,
    sql`SELECT ${ARCHIVED_COLUMNS}, ${similarity} AS similarity, ${words}
      FROM memory_archive a
      WHERE a.agent_id = ${agentId} AND a.summary_id = ANY(${textArray(summaryIds)})`,
  );
  const relevance = expandedRelevance(read, read[0]?.q ?? "");
  const rows = read;
  const scoredRows = rows.map((m, i) => ({ m, relevance: relevance[i] as number }));
  const bySummary = new Map<string, typeof scoredRows>();
  for (const r of scoredRows) bySummary.set(r.m.summaryId, [...(bySummary.get(r.m.summaryId) ?? []), r]);
  for (const [summaryId, members] of bySummary) {
    const best = members
      .sort(
        (a, b) =>
          b.relevance - a.relevance ||
          (b.m.importance ?? 0) - (a.m.importance ?? 0) ||
          b.m.createdAt.localeCompare(a.m.createdAt),
      )
      .slice(0, perSummary)
      .map(({ m, relevance }) => {
        const { similarity, tsv: _tsv, q: _q, ...rest } = m;
        return {
          ...toArchivedMemory(rest),
          similarity: similarity === null ? null : Number(similarity),
          relevance,
        };
      });
    out.set(summaryId, best);
  }
  return out;
}

/**
 * Counts an expansion of archived memories `ids` at `now` (their last access moves as a touch
 * would), and promotes those expanded `promoteAfter` times back to the ranked stream (promote).
 * Answers the promoted ids. promoteAfter 0 = count only.
 */
export async function countExpansions(
  db: Pick<Db, "transaction">,
  agentId: string,
  ids: readonly string[],
  now: Date,
  promoteAfter: number,
): Promise<string[]> {
  if (ids.length === 0) return [];
  return db.transaction(async (tx) => {
    const counted = await queryRows<{ id: string; expansions: number }>(
      tx,
      sql`UPDATE memory_archive SET expansions = expansions + 1,
          last_accessed_at = greatest(last_accessed_at, ${now.toISOString()}::timestamptz)
        WHERE agent_id = ${agentId} AND id = ANY(${textArray([...ids].sort())})
        RETURNING id, expansions`,
    );
    if (promoteAfter <= 0) return [];
    const due = counted.filter((c) => Number(c.expansions) >= promoteAfter).map((c) => c.id);
    await promote(tx, agentId, due);
    return due;
  });
}

/**
 * Moves archived memories back to `memories` as they were — text, times, importance, metadata,
 * citations, vector and edit history — in the caller's transaction. Their summary keeps citing
 * them (it still tells of them), and they rank on their own again.
 */
export async function promote(
  tx: Pick<Db, "execute">,
  agentId: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const these = textArray(ids);
  await tx.execute(sql`
    INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, inserted_at, updated_at,
      revision, importance, ${target(FIELDS.importance.status)}, importance_source, ${target(FIELDS.embedding.status)},
      embedding_model, metadata,
      citations, superseded_by, valid_until, expires_at, prompt_version)
    SELECT id, agent_id, kind, description, created_at, last_accessed_at, inserted_at, updated_at,
      revision, importance, CASE WHEN importance IS NULL THEN 'failed' ELSE 'ready' END, importance_source,
      'ready', embedding_model, metadata, citations, superseded_by, valid_until, expires_at, prompt_version
    FROM memory_archive WHERE agent_id = ${agentId} AND id = ANY(${these})`);
  await tx.execute(sql`
    INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
    SELECT id, agent_id, embedding_model, vector_dims(embedding), embedding, revision
    FROM memory_archive WHERE agent_id = ${agentId} AND id = ANY(${these})`);
  await tx.execute(sql`
    INSERT INTO memory_revisions (agent_id, memory_id, revision, description, importance, metadata, replaced_at)
    SELECT a.agent_id, a.id, (r->>'revision')::int, r->>'description', (r->>'importance')::smallint,
      r->'metadata', (r->>'replacedAt')::timestamptz
    FROM memory_archive a, jsonb_array_elements(a.revisions) r
    WHERE a.agent_id = ${agentId} AND a.id = ANY(${these})`);
  await tx.execute(sql`DELETE FROM memory_archive WHERE agent_id = ${agentId} AND id = ANY(${these})`);
}
