import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { lessonRevisions, memories, memoryEmbeddings, outcomes } from "../../db/schema";
import { newId } from "../../lib/ids";
import { assertNotErased, type WrittenSince } from "../erasure/guard";
import { insertMemoryRows } from "../insert-rows";
import type { Tx } from "../transaction";
import { type LessonFacts, lessonImportance } from "./stats";
import type { LessonStats } from "./types";

/** A lesson's current state, as consolidation needs it. */
export type CurrentLesson = { id: string; revision: number; stats: LessonStats; citations: string[] };

const sameType = (column: typeof lessonRevisions.taskType, taskType: string | null) =>
  taskType === null ? isNull(column) : eq(column, taskType);

/** The lessons of one task type with their newest revision. */
export async function lessonsOfType(
  db: Db,
  agentId: string,
  taskType: string | null,
): Promise<CurrentLesson[]> {
  const r = lessonRevisions;
  const rows = await db
    .selectDistinctOn([r.lessonId], {
      id: r.lessonId,
      revision: r.revision,
      stats: r.stats,
      citations: memories.citations,
    })
    .from(r)
    .innerJoin(memories, and(eq(memories.agentId, agentId), eq(memories.id, r.lessonId)))
    .where(and(eq(r.agentId, agentId), sameType(r.taskType, taskType)))
    .orderBy(r.lessonId, desc(r.revision));
  return rows;
}

/**
 * The outcomes of `ids` that still exist, locked against deletion until the lesson citing them
 * commits: an outcome deleted meanwhile (DELETE, retention) is not cited, and retention, which
 * keeps what lessons cite, sees the citation once it can delete again.
 */
async function stillThere(tx: Tx, agentId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: outcomes.memoryId })
    .from(outcomes)
    .where(and(eq(outcomes.agentId, agentId), inArray(outcomes.memoryId, ids)))
    .for("share");
  const kept = new Set(rows.map((r) => r.id));
  return ids.filter((id) => kept.has(id));
}

/**
 * A lesson worded from an outcome deleted while it was consolidated would keep that outcome's
 * data (docs/adr/0034): the job fails with a plain error and its retry words it again from what
 * remains.
 */
function evidenceKept(cited: string[], asked: string[]): void {
  if (cited.length < new Set(asked).size) {
    throw new Error("an outcome the lesson rests on was deleted while it was consolidated; retrying");
  }
}

/** The memory fields a lesson's wording sets: description, citations, importance, metadata. */
function lessonFields(f: LessonFacts, description: string, citations: string[], wording: string) {
  return {
    description,
    citations,
    importance: lessonImportance(f.confidence),
    metadata: { taskType: f.taskType, polarity: f.polarity, confidence: f.confidence },
    promptVersion: wording,
  };
}

/**
 * Writes a new lesson memory (revision 1) citing `outcomeIds` that still exist; its id, or null
 * when none does. Throws `AgentErased` (writing nothing) when the agent was erased since `since`.
 */
export async function createLesson(
  db: Db,
  agentId: string,
  since: WrittenSince,
  now: Date,
  f: LessonFacts,
  write: { description: string; outcomeIds: string[]; wording: string },
): Promise<string | null> {
  const id = newId("mem");
  return db.transaction(async (tx) => {
    await assertNotErased(tx, agentId, since);
    const cited = await stillThere(tx, agentId, write.outcomeIds);
    if (cited.length === 0) return null;
    evidenceKept(cited, write.outcomeIds);
    const fields = lessonFields(f, write.description, cited, write.wording);
    await insertMemoryRows(
      tx,
      agentId,
      now,
      [{ id, kind: "lesson", createdAt: now, importanceSource: "lesson", embeddingModel: null, ...fields }],
      [],
    );
    await tx
      .insert(lessonRevisions)
      .values(revisionRow(agentId, id, 1, f, { ...write, outcomeIds: cited }, now));
    return id;
  });
}

/**
 * Revises a lesson in place (same memory id): new wording, citations, counts and importance, and a
 * new history row. A changed wording bumps the memory revision and drops its vectors, so the
 * enrichment jobs re-embed it (jobs for the old text are discarded). Returns the memory revision
 * and whether the wording changed, or null when the lesson is gone (deleted meanwhile). Throws
 * `AgentErased` (writing nothing) when the agent was erased since `since`.
 */
export async function reviseLesson(
  db: Db,
  agentId: string,
  since: WrittenSince,
  now: Date,
  lesson: CurrentLesson,
  f: LessonFacts,
  write: { description: string; outcomeIds: string[]; wording: string },
): Promise<{ revision: number; changed: boolean } | null> {
  return db.transaction(async (tx) => {
    await assertNotErased(tx, agentId, since);
    const cited = await stillThere(tx, agentId, write.outcomeIds);
    evidenceKept(cited, write.outcomeIds);
    const fields = lessonFields(f, write.description, cited, write.wording);
    const [current] = await tx
      .select({ description: memories.description, revision: memories.revision })
      .from(memories)
      .where(and(eq(memories.agentId, agentId), eq(memories.id, lesson.id)))
      .for("update");
    if (!current) return null;
    const changed = current.description !== write.description;
    const revision = changed ? current.revision + 1 : current.revision;
    await tx
      .update(memories)
      .set({
        ...fields,
        importanceStatus: "ready",
        importanceError: null,
        importanceSource: "lesson",
        updatedAt: now,
        // New evidence refreshes the lesson: it is as recent as the outcome that revised it, so a
        // long-lived lesson does not decay out of retrieval while it keeps being confirmed.
        lastAccessedAt: now,
        revision,
        ...(changed
          ? {
              embeddingStatus: "pending",
              embeddingError: null,
              embeddingModel: null,
              embeddingClaimedBy: null,
              embeddingClaimedUntil: null,
              attempts: 0,
            }
          : {}),
      })
      .where(and(eq(memories.agentId, agentId), eq(memories.id, lesson.id)));
    if (changed) {
      await tx
        .delete(memoryEmbeddings)
        .where(and(eq(memoryEmbeddings.agentId, agentId), eq(memoryEmbeddings.memoryId, lesson.id)));
    }
    await tx
      .insert(lessonRevisions)
      .values(revisionRow(agentId, lesson.id, lesson.revision + 1, f, write, now));
    return { revision, changed };
  });
}

function revisionRow(
  agentId: string,
  lessonId: string,
  revision: number,
  f: LessonFacts,
  write: { description: string; outcomeIds: string[]; wording: string },
  now: Date,
) {
  return {
    agentId,
    lessonId,
    revision,
    taskType: f.taskType,
    polarity: f.polarity,
    description: write.description,
    stats: f.stats,
    confidence: f.confidence,
    outcomeIds: write.outcomeIds,
    wording: write.wording,
    createdAt: now,
  };
}
