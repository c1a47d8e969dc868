-- The lexical index keys each lexeme by its agent (docs/adr/0024): a lookup reads the postings of
-- one agent's lexeme, never the lexeme's postings across every tenant intersected with the
-- agent's whole posting list, as the btree_gin index on (agent_id, description_tsv) did (4.9 ms a
-- lexeme for a 10k agent in a 116k table, 0.09 ms now). The key is a hash prefix of the agent id
-- (short keys whatever the id's length); queries still compare agent_id, so a collision costs a
-- row read, never a wrong row. One expression, no FROM, so PostgreSQL inlines it: written with
-- unnest and array_agg it was a function call per row, 1.3-1.7x the old index's insert cost, and
-- the cost it was given made the planner intersect the postings with the agent's whole btree range.
CREATE FUNCTION memstream_agent_lexeme(agent text, lexeme text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT left(md5(agent), 16) || ' ' || lexeme $$;
--> statement-breakpoint
CREATE FUNCTION memstream_agent_lexemes(agent text, tsv tsvector) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT string_to_array(left(md5(agent), 16) || ' ' || array_to_string(tsvector_to_array(tsv), chr(1) || left(md5(agent), 16) || ' '), chr(1)) $$;
--> statement-breakpoint
DROP INDEX IF EXISTS "memories_agent_terms_idx";
--> statement-breakpoint
CREATE INDEX "memories_agent_lexemes_idx" ON "memories" USING gin (memstream_agent_lexemes("agent_id", "description_tsv")) WITH (gin_pending_list_limit = 256);
