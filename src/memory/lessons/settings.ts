import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { agentSettings } from "../../db/schema";
import type { LessonSettings } from "./settings-shape";
import { DEFAULT_SIMILARITY } from "./similarity";

export type { LessonSettings };

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
