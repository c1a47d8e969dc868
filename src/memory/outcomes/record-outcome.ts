import { outcomes } from "../../db/schema";
import { newId } from "../../lib/ids";
import type { MemoryDeps } from "../deps";
import { insertMemoryRows } from "../insert-rows";
import type { OutcomeFields } from "../lessons/types";
import { toMemory } from "../serialize";
import type { Memory } from "../types";
import { describeOutcome } from "./describe";

export type OutcomeInput = {
  task: string;
  taskType?: string;
  success: boolean;
  strategy?: string;
  error?: string;
  durationMs?: number;
  metadata?: Record<string, unknown>;
  /** ISO 8601; the memory's `createdAt`. Defaults to now. */
  occurredAt?: string;
};

export type RecordedOutcome = Memory & { outcome: OutcomeFields };

/**
 * Importance of an outcome, set here rather than by the scorer (ADR 0018): a failure is worth
 * more attention than a routine success, and what generalizes is carried by the lesson (7–9).
 * Deterministic, and no LLM call per outcome.
 */
export const outcomeImportance = (success: boolean) => (success ? 4 : 6);

/**
 * Stores an outcome: an `outcome` memory (described in words, embedded by the enrichment jobs)
 * and its structured fields, in one transaction; then announces it for consolidation.
 */
export async function recordOutcome(
  deps: MemoryDeps,
  agentId: string,
  input: OutcomeInput,
): Promise<RecordedOutcome> {
  const now = deps.clock.now();
  const fields: OutcomeFields = {
    task: input.task,
    taskType: input.taskType ?? null,
    success: input.success,
    strategy: input.strategy ?? null,
    error: input.error ?? null,
    durationMs: input.durationMs ?? null,
  };
  const row = {
    id: newId("mem"),
    kind: "outcome",
    description: describeOutcome(fields),
    createdAt: input.occurredAt ? new Date(input.occurredAt) : now,
    importance: outcomeImportance(input.success),
    importanceSource: "outcome",
    embeddingModel: null,
    metadata: input.metadata ?? {},
    citations: [],
    promptVersion: null,
  };
  await deps.db.transaction(async (tx) => {
    await insertMemoryRows(tx, agentId, now, [row], []);
    await tx.insert(outcomes).values({ agentId, memoryId: row.id, ...fields, insertedAt: now });
  });
  await deps.announce([
    { kind: "memories.pending", items: [{ memoryId: row.id, agentId, revision: 1 }] },
    { kind: "importance.added", agentId },
    { kind: "outcome.recorded", agentId, taskType: fields.taskType },
  ]);
  const memory = toMemory({
    ...row,
    agentId,
    lastAccessedAt: row.createdAt,
    importanceStatus: "ready",
    importanceError: null,
    embeddingStatus: "pending",
    embeddingError: null,
    supersededBy: null,
    validUntil: null,
  });
  return { ...memory, outcome: fields };
}
