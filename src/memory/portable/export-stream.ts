import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { isEmbedded } from "../../db/copy-support";
import type { MemoryDeps } from "../deps";
import { FORMAT, FORMAT_VERSION, type Header, type PortableSettings } from "./format";

/** Memories per page: each page is one keyset query plus one for its vectors and derived rows. */
export const EXPORT_PAGE = 500;

type Read = Pick<Db, "execute">;

/** A timestamp as ISO 8601 UTC with its microseconds: what the import writes back, exactly. */
const iso = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

type MemoryRow = {
  id: string;
  kind: string;
  description: string;
  created_at: string;
  last_accessed_at: string;
  inserted_at: string;
  importance: number | null;
  importance_source: string | null;
  embedding_model: string | null;
  metadata: Record<string, unknown>;
  citations: string[];
  superseded_by: string | null;
  valid_until: string | null;
  prompt_version: string | null;
  expires_at: string | null;
};

/**
 * Writes an agent's stream as JSON Lines (format.ts) to `write`, a page at a time: only one page
 * of memories, with their vectors, is ever in Node, and `write` is awaited (the consumer's pace).
 * On PostgreSQL the whole export reads one REPEATABLE READ snapshot, so a file never names a
 * memory deleted while it was written; on embedded PGlite (one backend for every connection) a
 * transaction would hold every other request for as long as a slow reader takes, so it reads page
 * by page (docs/adr/0038). Returns the counts written.
 */
export async function exportAgent(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  write: (chunk: string) => Promise<void> | void,
  page = EXPORT_PAGE,
): Promise<{ memories: number; documents: number; reflectionRuns: number }> {
  const run = (db: Read) => exportFrom(db, deps.clock.now(), agentId, write, page);
  if (isEmbedded(deps.db)) return run(deps.db);
  return deps.db.transaction(run, { isolationLevel: "repeatable read", accessMode: "read only" });
}

async function exportFrom(
  db: Read,
  now: Date,
  agentId: string,
  write: (chunk: string) => Promise<void> | void,
  page: number,
) {
  await write(`${JSON.stringify(await header(db, now, agentId))}\n`);
  const counts = { memories: 0, documents: 0, reflectionRuns: 0 };
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await queryRows<MemoryRow>(
      db,
      sql`SELECT id, kind, description, ${iso(sql`created_at`)} AS created_at,
        ${iso(sql`last_accessed_at`)} AS last_accessed_at, ${iso(sql`inserted_at`)} AS inserted_at,
        importance, importance_source, embedding_model, metadata, citations, superseded_by,
        ${iso(sql`valid_until`)} AS valid_until, prompt_version, ${iso(sql`expires_at`)} AS expires_at
      FROM memories WHERE agent_id = ${agentId}
        ${after ? sql`AND (created_at, id) > (${after.at}::timestamptz, ${after.id})` : sql``}
      ORDER BY created_at, id LIMIT ${page}`,
    );
    if (rows.length === 0) break;
    await write(await memoryLines(db, agentId, rows));
    counts.memories += rows.length;
    const last = rows.at(-1) as MemoryRow;
    after = { at: last.created_at, id: last.id };
    if (rows.length < page) break;
  }
  counts.memories += await archived(db, agentId, write, page);
  counts.documents = await documents(db, agentId, write, page);
  counts.reflectionRuns = await reflectionRuns(db, agentId, write, page);
  await write(`${JSON.stringify({ type: "end", ...counts })}\n`);
  return counts;
}

async function header(db: Read, now: Date, agentId: string): Promise<Header> {
  const models = await queryRows<{ model: string; dimensions: number; vectors: string | number }>(
    db,
    sql`SELECT model, dimensions, count(*) AS vectors FROM memory_embeddings
      WHERE agent_id = ${agentId} GROUP BY model, dimensions ORDER BY model, dimensions`,
  );
  const [total] = await queryRows<{ n: string | number }>(
    db,
    sql`SELECT (SELECT count(*) FROM memories WHERE agent_id = ${agentId})
      + (SELECT count(*) FROM memory_archive WHERE agent_id = ${agentId}) AS n`,
  );
  const [s] = await queryRows<PortableSettingsRow>(
    db,
    sql`SELECT reflection_threshold, retrieval, lessons, retention, learn_weights
      FROM agent_settings WHERE agent_id = ${agentId}`,
  );
  return {
    type: "header",
    format: FORMAT,
    version: FORMAT_VERSION,
    agentId,
    exportedAt: now.toISOString(),
    embeddingModels: models.map((m) => ({
      model: m.model,
      dimensions: Number(m.dimensions),
      vectors: Number(m.vectors),
    })),
    memories: Number(total?.n ?? 0),
    settings: s ? settingsOf(s) : null,
  };
}

type PortableSettingsRow = {
  reflection_threshold: number | null;
  retrieval: Record<string, unknown> | null;
  lessons: Record<string, unknown> | null;
  retention: Record<string, unknown> | null;
  learn_weights: boolean | null;
};

/** What an agent chose (not what it learned or counted: learned weights and `forgotten` stay behind). */
const settingsOf = (s: PortableSettingsRow): PortableSettings => ({
  reflectionThreshold: s.reflection_threshold,
  retrieval: s.retrieval,
  lessons: s.lessons,
  retention: s.retention,
  learnWeights: s.learn_weights,
});

/** One page of memories as lines, each with its vectors (pgvector's text spliced in as is), outcome and lesson revisions. */
async function memoryLines(db: Read, agentId: string, rows: MemoryRow[]): Promise<string> {
  const ids = idList(rows.map((r) => r.id));
  const vectors = await queryRows<{ memory_id: string; model: string; v: string }>(
    db,
    sql`SELECT memory_id, model, embedding::text AS v FROM memory_embeddings
      WHERE agent_id = ${agentId} AND memory_id IN (${ids}) ORDER BY memory_id, model`,
  );
  const cited = [...new Set(rows.flatMap((r) => r.citations))];
  const alive = new Set(
    cited.length === 0
      ? []
      : (
          await queryRows<{ id: string }>(
            db,
            sql`SELECT id FROM memories WHERE agent_id = ${agentId} AND id IN (${idList(cited)})
              UNION ALL
              SELECT id FROM memory_archive WHERE agent_id = ${agentId} AND id IN (${idList(cited)})`,
          )
        ).map((r) => r.id),
  );
  const byMemory = new Map<string, string[]>();
  for (const v of vectors) {
    const list = byMemory.get(v.memory_id) ?? [];
    list.push(`${JSON.stringify(v.model)}:${v.v}`);
    byMemory.set(v.memory_id, list);
  }
  const outcomes = rows.some((r) => r.kind === "outcome")
    ? await queryRows<{ memory_id: string; o: Record<string, unknown> }>(
        db,
        sql`SELECT memory_id, json_build_object('task', task, 'taskType', task_type, 'success', success,
          'strategy', strategy, 'error', error, 'durationMs', duration_ms,
          'consolidatedAt', ${iso(sql`consolidated_at`)}, 'insertedAt', ${iso(sql`inserted_at`)}) AS o
        FROM outcomes WHERE agent_id = ${agentId} AND memory_id IN (${ids})`,
      )
    : [];
  const outcomeOf = new Map(outcomes.map((o) => [o.memory_id, o.o]));
  const revisions = rows.some((r) => r.kind === "lesson")
    ? await queryRows<{ lesson_id: string; r: Record<string, unknown> }>(
        db,
        sql`SELECT lesson_id, json_build_object('revision', revision, 'taskType', task_type, 'polarity', polarity,
          'description', description, 'stats', stats, 'confidence', confidence, 'outcomeIds', outcome_ids,
          'wording', wording, 'createdAt', ${iso(sql`created_at`)}) AS r
        FROM lesson_revisions WHERE agent_id = ${agentId} AND lesson_id IN (${ids}) ORDER BY lesson_id, revision`,
      )
    : [];
  const revisionsOf = new Map<string, Record<string, unknown>[]>();
  for (const r of revisions) revisionsOf.set(r.lesson_id, [...(revisionsOf.get(r.lesson_id) ?? []), r.r]);
  // Edited memories are few: one indexed look-up per page, whatever the kinds.
  const history = await queryRows<{ memory_id: string; r: Record<string, unknown> }>(
    db,
    sql`SELECT memory_id, json_build_object('revision', revision, 'description', description,
      'importance', importance, 'metadata', metadata, 'replacedAt', ${iso(sql`replaced_at`)}) AS r
    FROM memory_revisions WHERE agent_id = ${agentId} AND memory_id IN (${ids}) ORDER BY memory_id, revision`,
  );
  const historyOf = new Map<string, Record<string, unknown>[]>();
  for (const h of history) historyOf.set(h.memory_id, [...(historyOf.get(h.memory_id) ?? []), h.r]);
  let out = "";
  for (const r of rows) {
    const record: Record<string, unknown> = {
      type: "memory",
      id: r.id,
      kind: r.kind,
      description: r.description,
      createdAt: r.created_at,
      lastAccessedAt: r.last_accessed_at,
      insertedAt: r.inserted_at,
      importance: r.importance,
      importanceSource: r.importance_source,
      embeddingModel: r.embedding_model,
      metadata: r.metadata,
      citations: r.citations,
      supersededBy: r.superseded_by,
      validUntil: r.valid_until,
      promptVersion: r.prompt_version,
      expiresAt: r.expires_at,
    };
    const missing = r.citations.filter((c) => !alive.has(c));
    if (missing.length > 0) record.missingCitations = missing;
    const outcome = outcomeOf.get(r.id);
    if (outcome) record.outcome = outcome;
    const lessonRevisions = revisionsOf.get(r.id);
    if (r.kind === "lesson") record.lessonRevisions = lessonRevisions ?? [];
    const earlier = historyOf.get(r.id);
    if (earlier) record.history = earlier;
    // The vectors last, as pgvector printed them: valid JSON numbers that parse back to the same float4.
    const json = JSON.stringify(record);
    out += `${json.slice(0, -1)},"vectors":{${(byMemory.get(r.id) ?? []).join(",")}}}\n`;
  }
  return out;
}

/**
 * The archive tier (docs/adr/0044), after the ranked memories: each archived memory as a memory
 * record with `archived`, its vector and its edit history, a page at a time.
 */
async function archived(
  db: Read,
  agentId: string,
  write: (chunk: string) => Promise<void> | void,
  page: number,
): Promise<number> {
  let n = 0;
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await queryRows<{
      id: string;
      created_at: string;
      line: Record<string, unknown>;
      v: string;
    }>(
      db,
      sql`SELECT id, ${iso(sql`created_at`)} AS created_at, json_build_object('type', 'memory', 'id', id,
        'kind', kind, 'description', description, 'createdAt', ${iso(sql`created_at`)},
        'lastAccessedAt', ${iso(sql`last_accessed_at`)}, 'insertedAt', ${iso(sql`inserted_at`)},
        'importance', importance, 'importanceSource', importance_source, 'embeddingModel', embedding_model,
        'metadata', metadata, 'citations', citations, 'supersededBy', superseded_by,
        'validUntil', ${iso(sql`valid_until`)}, 'promptVersion', prompt_version, 'expiresAt', ${iso(sql`expires_at`)},
        'archived', json_build_object('summaryId', summary_id, 'archivedAt', ${iso(sql`archived_at`)},
          'expansions', expansions)) AS line,
        embedding::text AS v,
        CASE WHEN jsonb_array_length(revisions) > 0 THEN revisions END AS history
      FROM memory_archive WHERE agent_id = ${agentId}
        ${after ? sql`AND (created_at, id) > (${after.at}::timestamptz, ${after.id})` : sql``}
      ORDER BY created_at, id LIMIT ${page}`,
    );
    let out = "";
    for (const r of rows as ((typeof rows)[number] & { history: Record<string, unknown>[] | null })[]) {
      const record = r.history
        ? {
            ...r.line,
            history: r.history.map((h) => ({
              ...h,
              replacedAt: new Date(String(h.replacedAt)).toISOString(),
            })),
          }
        : r.line;
      const json = JSON.stringify(record);
      out += `${json.slice(0, -1)},"vectors":{${JSON.stringify(r.line.embeddingModel)}:${r.v}}}\n`;
    }
    if (out) await write(out);
    n += rows.length;
    if (rows.length < page) return n;
    const last = rows.at(-1) as { id: string; created_at: string };
    after = { at: last.created_at, id: last.id };
  }
}

async function documents(
  db: Read,
  agentId: string,
  write: (chunk: string) => Promise<void> | void,
  page: number,
) {
  let n = 0;
  let after: string | undefined;
  for (;;) {
    const rows = await queryRows<{ source: string; d: Record<string, unknown> }>(
      db,
      sql`SELECT source, json_build_object('type', 'document', 'source', source, 'title', title, 'format', format,
        'contentHash', content_hash, 'sections', sections, 'tokens', tokens,
        'importedAt', ${iso(sql`imported_at`)}, 'updatedAt', ${iso(sql`updated_at`)}) AS d
      FROM documents WHERE agent_id = ${agentId} ${after === undefined ? sql`` : sql`AND source > ${after}`}
      ORDER BY source LIMIT ${page}`,
    );
    if (rows.length > 0) await write(rows.map((r) => `${JSON.stringify(r.d)}\n`).join(""));
    n += rows.length;
    if (rows.length < page) return n;
    after = (rows.at(-1) as { source: string }).source;
  }
}

async function reflectionRuns(
  db: Read,
  agentId: string,
  write: (chunk: string) => Promise<void> | void,
  page: number,
) {
  let n = 0;
  let after: { at: string; id: string } | undefined;
  for (;;) {
    // A run still `running` belongs to the source's worker: the target has nothing running.
    const rows = await queryRows<{ id: string; started_at: string; r: Record<string, unknown> }>(
      db,
      sql`SELECT id, ${iso(sql`started_at`)} AS started_at, json_build_object('type', 'reflectionRun', 'id', id,
        'trigger', trigger, 'status', status, 'promptVersion', prompt_version, 'questions', questions,
        'insightIds', insight_ids, 'promptTokens', prompt_tokens, 'completionTokens', completion_tokens,
        'llmCalls', llm_calls, 'error', error, 'startedAt', ${iso(sql`started_at`)},
        'finishedAt', ${iso(sql`finished_at`)}) AS r
      FROM reflection_runs WHERE agent_id = ${agentId} AND status <> 'running'
        ${after ? sql`AND (started_at, id) > (${after.at}::timestamptz, ${after.id})` : sql``}
      ORDER BY started_at, id LIMIT ${page}`,
    );
    if (rows.length > 0) await write(rows.map((r) => `${JSON.stringify(r.r)}\n`).join(""));
    n += rows.length;
    if (rows.length < page) return n;
    const last = rows.at(-1) as { id: string; started_at: string };
    after = { at: last.started_at, id: last.id };
  }
}
