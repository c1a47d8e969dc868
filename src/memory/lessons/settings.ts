import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { agentSettings } from "../../db/schema";
import { DEFAULT_SIMILARITY } from "./similarity";

/** An agent's lesson settings as stored; a field left out takes its default. */
export type LessonSettings = {
  /** Similar outcomes of one task type needed before a lesson is written (default 3). */
  minOutcomes?: number;
  /** Cosine between task embeddings at or above which two outcomes are the same task (default 0.65). */
  similarity?: number;
};

export const DEFAULT_MIN_OUTCOMES = 3;
/** Bounds of `minOutcomes`: one outcome is no pattern; past 100 no lesson would ever form. */
export const MIN_OUTCOMES_RANGE = { min: 2, max: 100 } as const;

/** The settings in force. */
export const effectiveLessonSettings = (s: LessonSettings | null): Required<LessonSettings> => ({
  minOutcomes: s?.minOutcomes ?? DEFAULT_MIN_OUTCOMES,
  similarity: s?.similarity ?? DEFAULT_SIMILARITY,
});

/** Reads an agent's lesson settings in force. */
export async function lessonSettingsOf(db: Db, agentId: string): Promise<Required<LessonSettings>> {
  const [row] = await db
    .select({ lessons: agentSettings.lessons })
    .from(agentSettings)
    .where(eq(agentSettings.agentId, agentId));
  return effectiveLessonSettings(row?.lessons ?? null);
}
