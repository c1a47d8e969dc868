import { sql } from "drizzle-orm";
import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tsvector } from "./tsvector";

// Lexical statistics and candidates, kept by triggers on `memories` in the writing statement's
// own transaction (migration 0016, docs/adr/0022-lexical-statistics.md): BM25 reads an agent's
// document count, length sum and per-lexeme document frequency here instead of scanning its stream.

/**
 * Each memory's lexemes (its `description_tsv`), one row per memory with at least one lexeme.
 * A table of its own, not an index on `memories`: every touch and enrichment update of a memory
 * is a non-HOT update there, which would add every lexeme to a GIN index again; this row changes
 * only when the description does. The GIN index keys each lexeme by its agent
 * (`memstream_lexicon_keys`), so a lookup reads that agent's postings only.
 */
export const memoryTerms = pgTable(
  "memory_terms",
  {
    agentId: text("agent_id").notNull(),
    memoryId: text("memory_id").notNull(),
    terms: tsvector("terms").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.memoryId] }),
    index("memory_terms_keys_idx").using("gin", sql`memstream_lexicon_keys(${t.agentId}, ${t.terms})`),
  ],
);

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

/** Per-agent, per-lexeme document frequency, as signed deltas like `agent_lexicon`. */
export const agentLexemes = pgTable(
  "agent_lexemes",
  {
    agentId: text("agent_id").notNull(),
    lexeme: text("lexeme").notNull(),
    docs: bigint("docs", { mode: "number" }).notNull(),
  },
  (t) => [index("agent_lexemes_agent_lexeme_idx").on(t.agentId, t.lexeme, t.docs)],
);
