import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { retryOnDeadlock } from "../../db/retry-deadlock";
import { newId } from "../../lib/ids";
import type { MemoryDeps } from "../deps";
import { FIELDS, target } from "../enrichment/fields";
import { agentEpoch, erasedSinceUnderLock, lockAgentShared } from "../erasure/guard";
import { type InsertRow, insertMemoryRows } from "../insert-rows";
import { EXTRACTIVE_METHOD, groupMembers, type Member, summarize } from "./summarize";

/** Memories one compaction transaction reads and moves: bounded work and locks per transaction. */
export const COMPACT_BATCH = 2_000;
/** Memories one request (or job run) compacts at most; `more` says there are others. */
export const COMPACT_PER_RUN = 50_000;

export type CompactOptions = {
  /** Observations created before it are compacted. */
  before: Date;
  groupMax: number;
  dryRun?: boolean;
  /** Stop after this many members (default COMPACT_PER_RUN). */
  maxMembers?: number;
};

export type CompactReport = {
  dryRun: boolean;
  before: string;
  /** Summaries written (dry run: that would be). */
  summaries: number;
  /** Memories moved to the archive tier (dry run: that would be). */
  archived: number;
  /** Stopped at the run's bound with more to compact: run again. */
  more: boolean;
};

type Candidate = Member & { session: string | null };

/** The agent's observations compaction may take, oldest first: enriched, vector of the retrieval model. */
const eligible = (agentId: string, model: string, before: Date) => sql`
  m.agent_id = ${agentId} AND m.kind = 'observation' AND m.created_at < ${before.toISOString()}::timestamptz
  AND ${target(FIELDS.embedding.status)} = 'ready' AND ${target(FIELDS.importance.status)} <> 'pending'
  AND EXISTS (SELECT 1 FROM memory_embeddings e
    WHERE e.agent_id = m.agent_id AND e.memory_id = m.id AND e.model = ${model})`;

/**
 * Compaction (docs/adr/0044-memory-tiers.md): the agent's observations older than `before` are
 * grouped by day and session (summarize.ts `groupMembers`) into `summary` memories that cite them,
 * worded extractively offline; the members move to `memory_archive` with their vector and edit
 * history, out of every ranking statement. A batch per transaction under the agent's shared lock
 * (an erase waits or voids it), members locked in id order (ADR 0027's order) before they move.
 * The summary is written enriched (the members' centroid, their highest importance), so it is
 * searchable at once and costs no model call. Other kinds (reflections, lessons, documents…) stay.
 */
export async function compactAgent(
  deps: Pick<MemoryDeps, "db" | "clock" | "embedder">,
  agentId: string,
  opts: CompactOptions,
): Promise<CompactReport> {
  const model = deps.embedder.modelId;
  const report: CompactReport = {
    dryRun: opts.dryRun ?? false,
    before: opts.before.toISOString(),
    summaries: 0,
    archived: 0,
    more: false,
  };
  if (opts.dryRun) {
    // Counts per day and session, grouped as a run would: members of days with two or more.
    const days = await queryRows<{ n: number | string }>(
      deps.db,
      sql`SELECT count(*) AS n FROM memories m WHERE ${eligible(agentId, model, opts.before)}
        GROUP BY (m.created_at AT TIME ZONE 'UTC')::date, m.metadata->>'session'`,
    );
    for (const d of days) {
      const n = Number(d.n);
      if (n < 2) continue;
      report.archived += n;
      report.summaries += Math.ceil(n / opts.groupMax);
    }
    return report;
  }
  const limit = opts.maxMembers ?? COMPACT_PER_RUN;
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  // Days already passed over (a day of one memory stays as it is), so a run never reads them twice.
  let after: { createdAt: string; id: string } | null = null;
  while (report.archived < limit) {
    const batch = Math.min(COMPACT_BATCH, limit - report.archived);
    const done = await retryOnDeadlock(() =>
      deps.db.transaction(async (tx) => {
        await lockAgentShared(tx, agentId);
        if (await erasedSinceUnderLock(tx, agentId, since)) return null;
        const cursor = after
          ? sql`AND (m.created_at, m.id) > (${after.createdAt}::timestamptz, ${after.id})`
          : sql``;
        // Locked in id order, chosen oldest first.
        const rows = await queryRows<{
          id: string;
          description: string;
          created_at: string;
          importance: number | null;
          session: string | null;
          vector: string;
        }>(
          tx,
          sql`WITH picked AS (
              SELECT m.id FROM memories m WHERE ${eligible(agentId, model, opts.before)} ${cursor}
              ORDER BY m.created_at, m.id LIMIT ${batch}
            ),
            locked AS (
              SELECT m.id FROM memories m JOIN picked p ON p.id = m.id
              WHERE m.agent_id = ${agentId} ORDER BY m.id COLLATE "C" FOR UPDATE OF m
            )
            SELECT m.id, m.description, m.created_at::text AS created_at, m.importance,
              m.metadata->>'session' AS session, e.embedding::text AS vector
            FROM memories m JOIN locked l ON l.id = m.id
            JOIN memory_embeddings e ON e.agent_id = m.agent_id AND e.memory_id = m.id AND e.model = ${model}
            WHERE m.agent_id = ${agentId}
            ORDER BY m.created_at, m.id`,
        );
        if (rows.length === 0) return { read: 0, summaries: 0, archived: 0, last: null };
        const members: Candidate[] = rows.map((r) => ({
          id: r.id,
          description: r.description,
          createdAt: new Date(r.created_at),
          importance: r.importance === null ? null : Number(r.importance),
          session: r.session,
          vector: JSON.parse(r.vector) as number[],
        }));
        // A full batch may end inside a day: that day waits for the next batch, unless it is all there is.
        let usable = members;
        if (rows.length === batch) {
          const dayOf = (m: Candidate) => `${m.createdAt.toISOString().slice(0, 10)}|${m.session ?? ""}`;
          const lastDay = dayOf(members.at(-1) as Candidate);
          const cut = members.filter((m) => dayOf(m) !== lastDay);
          if (cut.length > 0) usable = cut;
        }
        const groups = groupMembers(usable, opts.groupMax);
        const now = deps.clock.now();
        const summaries = groups.map((g) => ({ id: newId("mem"), members: g, ...summarize(g) }));
        const insert: InsertRow[] = summaries.map((s) => ({
          id: s.id,
          kind: "summary",
          description: s.description,
          createdAt: (s.members.at(-1) as Candidate).createdAt,
          importance: s.importance,
          importanceSource: "compaction",
          embeddingModel: model,
          metadata: {
            summary: {
              method: EXTRACTIVE_METHOD,
              members: s.members.length,
              from: (s.members[0] as Candidate).createdAt.toISOString(),
              to: (s.members.at(-1) as Candidate).createdAt.toISOString(),
            },
          },
          citations: s.members.map((m) => m.id),
          promptVersion: null,
        }));
        await insertMemoryRows(
          tx,
          agentId,
          now,
          insert,
          summaries.map((s) => ({ memoryId: s.id, model, embedding: s.vector })),
        );
        const moves = summaries.flatMap((s) => s.members.map((m) => ({ id: m.id, summary_id: s.id })));
        await moveToArchive(tx, agentId, model, moves, now);
        const last = usable.at(-1) as Candidate;
        return {
          read: rows.length,
          summaries: summaries.length,
          archived: moves.length,
          last: { createdAt: last.createdAt.toISOString(), id: last.id },
        };
      }),
    );
    if (!done) break;
    report.summaries += done.summaries;
    report.archived += done.archived;
    if (done.read < batch || !done.last) return report;
    after = done.last;
  }
  report.more = report.archived >= limit;
  return report;
}

/**
 * Moves memories to the archive tier, in the caller's transaction: each row with its vector of
 * `model` and its edit history, then the row is deleted from `memories` (its vectors and revisions
 * by cascade, the lexical statistics by the delete trigger). Not a deletion: nothing derived from
 * it is touched, and reflections citing it still find it (citation-status.ts).
 */
export async function moveToArchive(
  tx: Parameters<typeof insertMemoryRows>[0],
  agentId: string,
  model: string,
  moves: { id: string; summary_id: string }[],
  now: Date,
): Promise<void> {
  if (moves.length === 0) return;
  // Citus routes an INSERT … SELECT over co-located tables of one agent; the moves travel as JSON.
  await tx.execute(sql`
    INSERT INTO memory_archive (agent_id, id, kind, description, created_at, last_accessed_at, inserted_at,
      updated_at, revision, importance, importance_source, metadata, citations, superseded_by, valid_until,
      expires_at, prompt_version, embedding_model, embedding, revisions, summary_id, archived_at)
    SELECT m.agent_id, m.id, m.kind, m.description, m.created_at, m.last_accessed_at, m.inserted_at,
      m.updated_at, m.revision, m.importance, m.importance_source, m.metadata, m.citations, m.superseded_by,
      m.valid_until, m.expires_at, m.prompt_version, e.model, e.embedding,
      coalesce(r.revisions, '[]'::jsonb), x.summary_id, ${now.toISOString()}::timestamptz
    FROM jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) AS x(id text, summary_id text)
    JOIN memories m ON m.agent_id = ${agentId} AND m.id = x.id
    JOIN memory_embeddings e ON e.agent_id = m.agent_id AND e.memory_id = m.id AND e.model = ${model}
    LEFT JOIN (
      SELECT memory_id, jsonb_agg(jsonb_build_object('revision', revision, 'description', description,
        'importance', importance, 'metadata', metadata, 'replacedAt', replaced_at) ORDER BY revision) AS revisions
      FROM memory_revisions WHERE agent_id = ${agentId}
        AND memory_id IN (SELECT x.id FROM jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) AS x(id text))
      GROUP BY memory_id
    ) r ON r.memory_id = m.id`);
  await tx.execute(sql`
    DELETE FROM memories WHERE agent_id = ${agentId}
      AND id IN (SELECT x.id FROM jsonb_to_recordset(${JSON.stringify(moves)}::jsonb) AS x(id text))`);
}
