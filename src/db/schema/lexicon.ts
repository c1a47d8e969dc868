import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";

// Lexical statistics, kept by triggers on `memories` in the writing statement's own transaction
// (migration 0016, docs/adr/0024-lexical-statistics.md): BM25 reads an agent's document count and
// length sum here instead of scanning its stream. Each query lexeme's document frequency is
// counted from its postings, which BM25 reads anyway (per-lexeme rows were dropped, migration 0022).

/**
 * Per-agent document count and length sum (length = distinct lexemes, as BM25 counts it), as
 * signed deltas: each writing statement adds one row per agent it wrote, so concurrent writers
 * never wait on a shared row; readers sum them, and the insert trigger folds an agent's rows
 * into one once they pile up. Exact at every snapshot: no lag, only more rows to sum.
 */
export const agentLexicon = pgTable(
  "agent_lexicon",
  {
    agentId: text("agent_id").notNull(),
    docs: bigint("docs", { mode: "number" }).notNull(),
    lengthSum: bigint("length_sum", { mode: "number" }).notNull(),
  },
  (t) => [index("agent_lexicon_agent_idx").on(t.agentId, t.docs, t.lengthSum)],
);
