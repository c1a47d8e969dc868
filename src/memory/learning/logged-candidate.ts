/**
 * A logged candidate (the `retrieval_log.candidates` column): its memory id and its scaled
 * components (recency', importance', relevance'). Its own file, importing nothing, so the table's
 * schema can name it without an import cycle through the database client.
 */
export type LoggedCandidate = [id: string, recency: number, importance: number, relevance: number];
