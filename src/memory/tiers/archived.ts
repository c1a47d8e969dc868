import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { isoUtc } from "../../db/iso";
import { textArray } from "../../db/text-array";
import type { Memory, MemoryKind } from "../types";

/** The columns of an archived memory as `toArchivedMemory` reads them (raw SQL, ISO times). */
export type ArchivedRecord = {
  id: string;
  agentId: string;
  kind: string;
  description: string;
  createdAt: string;
  lastAccessedAt: string;
  importance: number | null;
  importanceSource: string | null;
  embeddingModel: string;
  metadata: Record<string, unknown>;
  citations: string[];
  supersededBy: string | null;
  validUntil: string | null;
  expiresAt: string | null;
  summaryId: string;
  archivedAt: string;
  expansions: number;
};

/** The SELECT list of `memory_archive a` that `toArchivedMemory` reads. */
export const ARCHIVED_COLUMNS = sql`a.id, a.agent_id AS "agentId", a.kind, a.description,
  ${isoUtc(sql`a.created_at`)} AS "createdAt", ${isoUtc(sql`a.last_accessed_at`)} AS "lastAccessedAt",
  a.importance, a.importance_source AS "importanceSource", a.embedding_model AS "embeddingModel",
  a.metadata, a.citations, a.superseded_by AS "supersededBy", ${isoUtc(sql`a.valid_until`)} AS "validUntil",
  ${isoUtc(sql`a.expires_at`)} AS "expiresAt", a.summary_id AS "summaryId",
  ${isoUtc(sql`a.archived_at`)} AS "archivedAt", a.expansions`;

/** Archive row → the API's memory, with `archived` saying where it stands. */
export function toArchivedMemory(r: ArchivedRecord): Memory {
  return {
    id: r.id,
    agentId: r.agentId,
    kind: r.kind as MemoryKind,
    description: r.description,
    createdAt: r.createdAt,
    lastAccessedAt: r.lastAccessedAt,
    importance: r.importance === null ? null : Number(r.importance),
    importanceSource: r.importanceSource,
    embeddingModel: r.embeddingModel,
    metadata: r.metadata ?? {},
    citations: r.citations ?? [],
    supersededBy: r.supersededBy,
    validUntil: r.validUntil,
    expiresAt: r.expiresAt,
    status: { importance: r.importance === null ? "failed" : "ready", embedding: "ready" },
    archived: { summaryId: r.summaryId, archivedAt: r.archivedAt, expansions: Number(r.expansions) },
  };
}

/** The agent's archived memories `ids`, in no particular order (ids it does not have are skipped). */
export async function readArchived(
  db: Pick<Db, "execute">,
  agentId: string,
  ids: readonly string[],
): Promise<Memory[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<ArchivedRecord>(
    db,
    sql`SELECT ${ARCHIVED_COLUMNS} FROM memory_archive a
      WHERE a.agent_id = ${agentId} AND a.id = ANY(${textArray(ids)})`,
  );
  return rows.map(toArchivedMemory);
}
