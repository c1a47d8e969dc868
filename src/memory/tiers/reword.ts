import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { queryRows } from "../../db/client";
import { textArray } from "../../db/text-array";
import { summarize } from "./summarize";

type Tx = Pick<Db, "execute">;

/**
 * After memories `deleted` were deleted in `tx`: each summary citing one is worded again from the
 * members it still has (its archived ones and those promoted back), with their centroid as its
 * vector, so no summary keeps a deleted memory's text or direction; a summary left with no member
 * is answered for deletion (the caller deletes it through the deletion path). Summaries are few
 * per deletion: found through the citations GIN index, members read by summary id.
 */
export async function rewordSummaries(
  tx: Tx,
  agentId: string,
  deleted: readonly string[],
): Promise<string[]> {
  if (deleted.length === 0) return [];
  const summaries = await queryRows<{ id: string; citations: string[]; metadata: Record<string, unknown> }>(
    tx,
    sql`SELECT id, citations, metadata FROM memories
      WHERE agent_id = ${agentId} AND kind = 'summary' AND cardinality(citations) > 0
        AND citations && ${textArray(deleted)}
      ORDER BY id COLLATE "C" FOR UPDATE`,
  );
  const empty: string[] = [];
  const gone = new Set(deleted);
  for (const s of summaries) {
    const left = s.citations.filter((c) => !gone.has(c));
    const members = left.length
      ? await queryRows<{
          id: string;
          description: string;
          created_at: string;
          importance: number | null;
          vector: string;
        }>(
          tx,
          sql`SELECT a.id, a.description, a.created_at::text AS created_at, a.importance, a.embedding::text AS vector
            FROM memory_archive a WHERE a.agent_id = ${agentId} AND a.id = ANY(${textArray(left)})
            UNION ALL
            SELECT m.id, m.description, m.created_at::text, m.importance, e.embedding::text
            FROM memories m JOIN memory_embeddings e ON e.agent_id = m.agent_id AND e.memory_id = m.id
              AND e.model = m.embedding_model
            WHERE m.agent_id = ${agentId} AND m.id = ANY(${textArray(left)})
            ORDER BY 3, 1`,
        )
      : [];
    if (members.length === 0) {
      empty.push(s.id);
      continue;
    }
    const summary = summarize(
      members.map((m) => ({
        id: m.id,
        description: m.description,
        createdAt: new Date(m.created_at),
        importance: m.importance === null ? null : Number(m.importance),
        vector: JSON.parse(m.vector) as number[],
      })),
    );
    const meta = {
      ...s.metadata,
      summary: { ...(s.metadata.summary as object), members: members.length, reworded: true },
    };
    await tx.execute(sql`
      UPDATE memories SET description = ${summary.description}, citations = ${textArray(members.map((m) => m.id))},
        importance = ${summary.importance}, metadata = ${JSON.stringify(meta)}::jsonb,
        revision = revision + 1
      WHERE agent_id = ${agentId} AND id = ${s.id}`);
    await tx.execute(sql`
      UPDATE memory_embeddings SET embedding = ${`[${summary.vector.join(",")}]`}::vector,
        revision = revision + 1
      WHERE agent_id = ${agentId} AND memory_id = ${s.id}`);
  }
  return empty;
}
