/**
 * A logged candidate (the `retrieval_log.candidates` column): its memory id and its scaled
 * components (recency', importance', relevance'); a fifth element 0 marks one the statement
 * ranked below the returned k (the pool the steps ran on), so a fit can learn to lift it. Its own
 * file, importing nothing, so the table's schema can name it without an import cycle.
 */
export type LoggedCandidate =
  | [id: string, recency: number, importance: number, relevance: number]
  | [id: string, recency: number, importance: number, relevance: number, returned: 0];

/** Whether the retrieve returned it (not only ranked it below the cut). */
export const wasReturned = (c: LoggedCandidate): boolean => c[4] !== 0;
