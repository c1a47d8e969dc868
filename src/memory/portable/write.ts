import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { type CopyVector, copyVectors } from "../copy-vectors";
import { FIELDS, target } from "../enrichment/fields";
import type { MemoryWork } from "../events";
import { moveToArchive } from "../tiers/compact";
import type { Tx } from "../transaction";
import type { DocumentRecord, MemoryRecord, PortableSettings, ReflectionRunRecord } from "./format";

/** A reference read from line `line`'s `field` to memory `id`, checked once its batch is written. */
export type Reference = { line: number; field: string; id: string };

/** Writes the agent's settings unless it has some (its own choice wins); true when written. */
export async function writeSettings(tx: Tx, agentId: string, s: PortableSettings): Promise<boolean> {
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  const rows = await queryRows<{ agent_id: string }>(
    tx,
    sql`INSERT INTO agent_settings (agent_id, reflection_threshold, retrieval, lessons, retention, learn_weights)
      VALUES (${agentId}, ${s.reflectionThreshold}, ${json(s.retrieval)}::jsonb, ${json(s.lessons)}::jsonb,
        ${json(s.retention)}::jsonb, ${s.learnWeights})
      ON CONFLICT (agent_id) DO NOTHING RETURNING agent_id`,
  );
  return rows.length > 0;
}

/**
 * Writes a batch of memory records: the rows the agent does not have yet (ON CONFLICT DO NOTHING:
 * an id it has keeps its row, so a re-run adds nothing), then only those rows' vectors, outcome and
 * lesson revisions. Answers what was added, the references they make, and what enrichment is left.
 */
export async function writeMemories(
  tx: Tx,
  agentId: string,
  now: Date,
  batch: { n: number; r: MemoryRecord }[],
): Promise<{ added: string[]; vectors: number; references: Reference[]; enrich: MemoryWork[] }> {
  const at = now.toISOString();
  // An id already in the archive tier (a re-run after archived records were written) is the agent's too.
  const inArchive = new Set(
    (
      await queryRows<{ id: string }>(
        tx,
        sql`SELECT id FROM memory_archive WHERE agent_id = ${agentId} AND id IN (${sql.join(
          batch.map(({ r }) => sql`${r.id}`),
          sql`, `,
        )})`,
      )
    ).map((r) => r.id),
  );
  const rows = JSON.stringify(
    batch
      .filter(({ r }) => !inArchive.has(r.id))
      .map(({ r }) => ({
        id: r.id,
        kind: r.kind,
        description: r.description,
        created_at: r.createdAt,
        last_accessed_at: r.lastAccessedAt,
        inserted_at: r.insertedAt,
        importance: r.importance,
        importance_source: r.importanceSource,
        embedding_model: r.embeddingModel,
        metadata: r.metadata,
        citations: r.citations,
        superseded_by: r.supersededBy,
        valid_until: r.validUntil,
        prompt_version: r.promptVersion,
        expires_at: r.expiresAt ?? null,
      })),
  );
  const added = (
    await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, inserted_at,
        updated_at, importance, ${target(FIELDS.importance.status)}, importance_source,
        ${target(FIELDS.embedding.status)}, embedding_model,
        metadata, citations, superseded_by, valid_until, prompt_version, expires_at)
      SELECT x.id, ${agentId}, x.kind, x.description, x.created_at, x.last_accessed_at, x.inserted_at,
        ${at}::timestamptz, x.importance, CASE WHEN x.importance IS NULL THEN 'pending' ELSE 'ready' END,
        x.importance_source, CASE WHEN x.embedding_model IS NULL THEN 'pending' ELSE 'ready' END,
        x.embedding_model, x.metadata, ARRAY(SELECT jsonb_array_elements_text(x.citations)),
        x.superseded_by, x.valid_until, x.prompt_version, x.expires_at
      FROM jsonb_to_recordset(${rows}::jsonb) AS x(id text, kind text, description text, created_at timestamptz,
        last_accessed_at timestamptz, inserted_at timestamptz, importance smallint, importance_source text,
        embedding_model text, metadata jsonb, citations jsonb, superseded_by text, valid_until timestamptz,
        prompt_version text, expires_at timestamptz)
      ON CONFLICT (agent_id, id) DO NOTHING RETURNING id`,
    )
  ).map((r) => r.id);
  const fresh = new Set(added);
  const vectors: CopyVector[] = [];
  const references: Reference[] = [];
  const enrich: MemoryWork[] = [];
  const outcomes: unknown[] = [];
  const revisions: unknown[] = [];
  const history: unknown[] = [];
  const seen = new Set<string>();
  for (const { n, r } of batch) {
    // An id the agent had, or a second line with one id (the first line's row was written).
    if (!fresh.has(r.id) || seen.has(r.id)) continue;
    seen.add(r.id);
    for (const [model, embedding] of Object.entries(r.vectors))
      vectors.push({ memoryId: r.id, model, embedding });
    const missing = new Set(r.missingCitations ?? []);
    r.citations.forEach((id, i) => {
      if (!missing.has(id)) references.push({ line: n, field: `memory.citations.${i}`, id });
    });
    if (r.supersededBy) references.push({ line: n, field: "memory.supersededBy", id: r.supersededBy });
    if (r.importance === null || r.embeddingModel === null)
      enrich.push({ memoryId: r.id, agentId, revision: 1 });
    if (r.outcome) outcomes.push({ memory_id: r.id, ...snake(r.outcome) });
    r.lessonRevisions?.forEach((rev, i) => {
      rev.outcomeIds.forEach((id, j) => {
        references.push({ line: n, field: `memory.lessonRevisions.${i}.outcomeIds.${j}`, id });
      });
      revisions.push({ lesson_id: r.id, ...snake(rev) });
    });
    for (const h of r.history ?? []) history.push({ memory_id: r.id, ...snake(h) });
  }
  if (vectors.length > 0 && !(await copyVectors(tx, agentId, vectors)))
    await insertVectorText(tx, agentId, vectors);
  if (outcomes.length > 0) {
    await tx.execute(sql`INSERT INTO outcomes (agent_id, memory_id, task, task_type, success, strategy, error,
        duration_ms, consolidated_at, inserted_at)
      SELECT ${agentId}, x.memory_id, x.task, x.task_type, x.success, x.strategy, x.error, x.duration_ms,
        x.consolidated_at, x.inserted_at
      FROM jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) AS x(memory_id text, task text, task_type text,
        success boolean, strategy text, error text, duration_ms int, consolidated_at timestamptz, inserted_at timestamptz)
      ON CONFLICT DO NOTHING`);
  }
  if (revisions.length > 0) {
    await tx.execute(sql`INSERT INTO lesson_revisions (agent_id, lesson_id, revision, task_type, polarity, description,
        stats, confidence, outcome_ids, wording, created_at)
      SELECT ${agentId}, x.lesson_id, x.revision, x.task_type, x.polarity, x.description, x.stats, x.confidence,
        ARRAY(SELECT jsonb_array_elements_text(x.outcome_ids)), x.wording, x.created_at
      FROM jsonb_to_recordset(${JSON.stringify(revisions)}::jsonb) AS x(lesson_id text, revision int, task_type text,
        polarity text, description text, stats jsonb, confidence float8, outcome_ids jsonb, wording text,
        created_at timestamptz)
      ON CONFLICT DO NOTHING`);
  }
  if (history.length > 0) {
    await tx.execute(sql`INSERT INTO memory_revisions (agent_id, memory_id, revision, description, importance,
        metadata, replaced_at)
      SELECT ${agentId}, x.memory_id, x.revision, x.description, x.importance, x.metadata, x.replaced_at
      FROM jsonb_to_recordset(${JSON.stringify(history)}::jsonb) AS x(memory_id text, revision int,
        description text, importance smallint, metadata jsonb, replaced_at timestamptz)
      ON CONFLICT DO NOTHING`);
  }
  // Archived records go to the archive tier once their row and vector are written (docs/adr/0044).
  const toArchive = batch.filter(({ r }) => r.archived && fresh.has(r.id));
  const models = new Set(toArchive.map(({ r }) => r.embeddingModel as string));
  for (const model of models) {
    const moves = toArchive
      .filter(({ r }) => r.embeddingModel === model)
      .map(({ r }) => ({ id: r.id, summary_id: r.archived?.summaryId as string }));
    await moveToArchive(tx, agentId, model, moves, now);
  }
  if (toArchive.length > 0) {
    const kept = toArchive.map(({ r }) => ({
      id: r.id,
      archived_at: r.archived?.archivedAt,
      expansions: r.archived?.expansions,
    }));
    await tx.execute(sql`UPDATE memory_archive a SET archived_at = x.archived_at, expansions = x.expansions
      FROM jsonb_to_recordset(${JSON.stringify(kept)}::jsonb) AS x(id text, archived_at timestamptz, expansions int)
      WHERE a.agent_id = ${agentId} AND a.id = x.id`);
  }
  return { added, vectors: vectors.length, references, enrich };
}

/** Vectors as text, where COPY is not taken (embedded PGlite): "id\tmodel\tdims\t[…]" lines split server-side. */
async function insertVectorText(tx: Tx, agentId: string, vectors: CopyVector[]): Promise<void> {
  const lines = vectors
    .map((v) => `${v.memoryId}\t${v.model}\t${v.embedding.length}\t[${v.embedding.join(",")}]`)
    .join("\n");
  await tx.execute(sql`
    INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
    SELECT s.f[1], ${agentId}, s.f[2], s.f[3]::int, s.f[4]::vector, 1
    FROM unnest(string_to_array(${lines}, E'\n')) AS line, string_to_array(line, E'\t') AS s(f)
    ON CONFLICT DO NOTHING`);
}

/** Document rows the agent does not have (by source); the count added. */
export async function writeDocuments(tx: Tx, agentId: string, docs: DocumentRecord[]): Promise<number> {
  if (docs.length === 0) return 0;
  const rows = await queryRows<{ source: string }>(
    tx,
    sql`INSERT INTO documents (agent_id, source, title, format, content_hash, sections, tokens, imported_at, updated_at)
      SELECT ${agentId}, x.source, x.title, x.format, x.content_hash, x.sections, x.tokens, x.imported_at, x.updated_at
      FROM jsonb_to_recordset(${JSON.stringify(docs.map(snake))}::jsonb) AS x(source text, title text, format text,
        content_hash text, sections int, tokens int, imported_at timestamptz, updated_at timestamptz)
      ON CONFLICT (agent_id, source) DO NOTHING RETURNING source`,
  );
  return rows.length;
}

/** Reflection runs the agent does not have (by id); the count added. */
export async function writeReflectionRuns(
  tx: Tx,
  agentId: string,
  runs: ReflectionRunRecord[],
): Promise<number> {
  if (runs.length === 0) return 0;
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO reflection_runs (id, agent_id, trigger, status, prompt_version, questions, insight_ids,
        prompt_tokens, completion_tokens, llm_calls, error, started_at, finished_at)
      SELECT x.id, ${agentId}, x.trigger, x.status, x.prompt_version, x.questions,
        ARRAY(SELECT jsonb_array_elements_text(x.insight_ids)), x.prompt_tokens, x.completion_tokens, x.llm_calls,
        x.error, x.started_at, x.finished_at
      FROM jsonb_to_recordset(${JSON.stringify(runs.map(snake))}::jsonb) AS x(id text, trigger text, status text,
        prompt_version text, questions jsonb, insight_ids jsonb, prompt_tokens int, completion_tokens int,
        llm_calls int, error text, started_at timestamptz, finished_at timestamptz)
      ON CONFLICT (agent_id, id) DO NOTHING RETURNING id`,
  );
  return rows.length;
}

/** camelCase keys → snake_case, for jsonb_to_recordset's column names. */
function snake(o: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  );
}
