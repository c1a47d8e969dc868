import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import type { ChatModel } from "../../providers/types";
import type { MemoryDeps } from "../deps";
import { agentEpoch, assertNotErased } from "../erasure/guard";
import { supersede } from "../supersede";
import { parseSupersedeAnswer, renderSupersedePrompt } from "./prompt";

/** Kinds that state facts that can change; documents, outcomes and lessons have their own lifecycle. */
export const SUPERSEDABLE_KINDS = ["observation", "plan", "reflection"] as const;

/** Earlier memories shown to the LLM: the most similar ones, at most this many. */
export const SUPERSEDE_CANDIDATES = 5;

/**
 * Cosine similarity below which an earlier memory is not shown (no LLM call when none passes).
 * It sits below nearly every pair of versions of one fact with the offline embedder
 * (docs/adr/0029), so recall is the threshold's and precision the LLM's.
 */
export const SUPERSEDE_MIN_SIMILARITY = 0.5;

type Candidate = { id: string; description: string; createdAt: string; similarity: number };
type Subject = { id: string; description: string; createdAt: string };

/**
 * For one memory at its revision: its most similar earlier memories of the agent (created and
 * written no later, still current, of a supersedable kind, compared by the vector of `model`) are
 * shown to the LLM with the versioned prompt; those it says the memory updates or contradicts get
 * supersededBy / validUntil (only where still current: a caller's supersession is never
 * overridden). Nothing happens when the memory is gone, changed, has no vector of `model`, or no
 * earlier memory is similar enough. The write checks the agent was not erased since the read.
 */
export async function detectSupersession(
  deps: Pick<MemoryDeps, "db"> & { chat: ChatModel },
  ref: { agentId: string; memoryId: string; revision: number },
  model: string,
): Promise<{ asked: boolean; superseded: number }> {
  const { agentId, memoryId } = ref;
  const epoch = await agentEpoch(deps.db, agentId);
  const kinds = sql.join(
    SUPERSEDABLE_KINDS.map((k) => sql`${k}`),
    sql`, `,
  );
  const rows = await queryRows<Candidate & { subject: boolean }>(
    deps.db,
    sql`
      WITH n AS (
        SELECT m.id, m.description, m.created_at, m.inserted_at, e.embedding, e.dimensions
        FROM memories m JOIN memory_embeddings e
          ON e.agent_id = m.agent_id AND e.memory_id = m.id AND e.model = ${model}
        WHERE m.agent_id = ${agentId} AND m.id = ${memoryId} AND m.revision = ${ref.revision}
          AND m.kind IN (${kinds})
      )
      SELECT n.id, n.description, n.created_at::text AS "createdAt", 1::float8 AS similarity, true AS subject FROM n
      UNION ALL
      (SELECT o.id, o.description, o.created_at::text, 1 - (oe.embedding <=> n.embedding), false
      FROM n JOIN memory_embeddings oe
        ON oe.agent_id = ${agentId} AND oe.model = ${model} AND oe.dimensions = n.dimensions
      JOIN memories o ON o.agent_id = ${agentId} AND o.id = oe.memory_id
      WHERE o.id <> n.id AND o.kind IN (${kinds}) AND o.superseded_by IS NULL
        AND o.created_at <= n.created_at AND o.inserted_at <= n.inserted_at
      ORDER BY oe.embedding <=> n.embedding, o.id COLLATE "C"
      LIMIT ${SUPERSEDE_CANDIDATES})`,
  );
  const subject = rows.find((r) => r.subject) as Subject | undefined;
  const earlier = rows.filter((r) => !r.subject && Number(r.similarity) >= SUPERSEDE_MIN_SIMILARITY);
  if (!subject || earlier.length === 0) return { asked: false, superseded: 0 };
  const at = (s: string) => new Date(s);
  const answer = await deps.chat.complete(
    renderSupersedePrompt(
      { description: subject.description, createdAt: at(subject.createdAt) },
      earlier.map((e) => ({ description: e.description, createdAt: at(e.createdAt) })),
    ),
    { temperature: 0, maxTokens: 60, agentId },
  );
  const picked = parseSupersedeAnswer(answer.text, earlier.length).map((i) => earlier[i - 1]?.id as string);
  if (picked.length === 0) return { asked: true, superseded: 0 };
  const marked = await deps.db.transaction(async (tx) => {
    await assertNotErased(tx, agentId, { epoch });
    return supersede(
      tx as unknown as Pick<Db, "select" | "update">,
      agentId,
      [{ old: picked, by: memoryId, at: at(subject.createdAt), field: "supersedes" }],
      { onlyCurrent: true, existing: true },
    );
  });
  return { asked: true, superseded: marked.length };
}
