/**
 * An agent's lesson settings as stored (the `agent_settings.lessons` column); a field left out
 * takes its default (settings.ts). Its own file, importing nothing, so the table's schema can name
 * it without an import cycle through the database client.
 */
export type LessonSettings = {
  /** Similar outcomes of one task type needed before a lesson is written (default 3). */
  minOutcomes?: number;
  /** Cosine between task embeddings at or above which two outcomes are the same task (default 0.65). */
  similarity?: number;
};
