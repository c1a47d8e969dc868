-- Lexical statistics kept as memories are written, changed and deleted, and a GIN index of each
-- agent's lexemes (docs/adr/0024-lexical-statistics.md). Kept by the triggers below, in the
-- transaction of the statement that changed `memories`, so they are exact at every snapshot.
CREATE TABLE "agent_lexemes" (
	"agent_id" text NOT NULL,
	"lexeme" text NOT NULL,
	"docs" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_lexicon" (
	"agent_id" text NOT NULL,
	"docs" bigint NOT NULL,
	"length_sum" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "agent_lexemes_agent_lexeme_idx" ON "agent_lexemes" USING btree ("agent_id","lexeme","docs");--> statement-breakpoint
CREATE INDEX "agent_lexicon_agent_idx" ON "agent_lexicon" USING btree ("agent_id","docs","length_sum");--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
CREATE INDEX "memories_agent_terms_idx" ON "memories" USING gin ("agent_id","description_tsv");
--> statement-breakpoint
-- Folds an agent's delta rows into one per lexeme (and one count row). Readers sum the rows, so
-- folding never changes what they read; it only keeps the sums short. A writer that finds an
-- agent's count rows piling up folds them, unless another transaction is folding (try-lock).
CREATE FUNCTION memstream_lexicon_fold(agent text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('memstream.lexicon'), hashtext(agent)) THEN RETURN; END IF;
  WITH gone AS (DELETE FROM agent_lexicon WHERE agent_id = agent RETURNING docs, length_sum)
  INSERT INTO agent_lexicon (agent_id, docs, length_sum)
  SELECT agent, sum(docs), sum(length_sum) FROM gone HAVING count(*) > 0 AND sum(docs) <> 0;
  WITH twice AS (
    SELECT lexeme FROM agent_lexemes WHERE agent_id = agent GROUP BY lexeme HAVING count(*) > 1
  ),
  gone AS (
    DELETE FROM agent_lexemes l USING twice WHERE l.agent_id = agent AND l.lexeme = twice.lexeme
    RETURNING l.lexeme, l.docs
  )
  INSERT INTO agent_lexemes (agent_id, lexeme, docs)
  SELECT agent, lexeme, sum(docs) FROM gone GROUP BY lexeme HAVING sum(docs) <> 0;
END
$$;
--> statement-breakpoint
CREATE FUNCTION memstream_lexicon_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE a text;
BEGIN
  INSERT INTO agent_lexicon (agent_id, docs, length_sum)
  SELECT agent_id, count(*), sum(length(description_tsv)) FROM new_rows GROUP BY agent_id;
  INSERT INTO agent_lexemes (agent_id, lexeme, docs)
  SELECT n.agent_id, l, count(*) FROM new_rows n CROSS JOIN LATERAL unnest(tsvector_to_array(n.description_tsv)) l
  GROUP BY n.agent_id, l;
  -- 32 statements' rows at most before they are folded (each adds one count row per agent).
  FOR a IN SELECT DISTINCT agent_id FROM new_rows LOOP
    IF (SELECT count(*) FROM (SELECT 1 FROM agent_lexicon WHERE agent_id = a LIMIT 33) s) > 32 THEN
      PERFORM memstream_lexicon_fold(a);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION memstream_lexicon_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT agent_id, count(*) AS docs, sum(length(description_tsv)) AS len FROM old_rows GROUP BY agent_id LOOP
    -- The statement deleted every memory the agent had (an erase, a forget of everything): its
    -- statistics go whole instead of being counted down lexeme by lexeme. The lock waits for a
    -- fold in flight, whose rows the next statement then sees; rows of writers still in flight
    -- are not visible, are not deleted, and stay exactly their own memories' count.
    PERFORM pg_advisory_xact_lock(hashtext('memstream.lexicon'), hashtext(r.agent_id));
    IF (SELECT coalesce(sum(docs), 0) FROM agent_lexicon WHERE agent_id = r.agent_id) <= r.docs THEN
      DELETE FROM agent_lexicon WHERE agent_id = r.agent_id;
      DELETE FROM agent_lexemes WHERE agent_id = r.agent_id;
    ELSE
      INSERT INTO agent_lexicon (agent_id, docs, length_sum) VALUES (r.agent_id, -r.docs, -r.len);
      INSERT INTO agent_lexemes (agent_id, lexeme, docs)
      SELECT r.agent_id, l, -count(*) FROM old_rows o CROSS JOIN LATERAL unnest(tsvector_to_array(o.description_tsv)) l
      WHERE o.agent_id = r.agent_id GROUP BY l;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A description edit (rare: PATCH, a lesson's revision): the memory's lexemes swap. Row-level with
-- a WHEN, so the touches and enrichment updates of every retrieve and job never call it.
CREATE FUNCTION memstream_lexicon_edited() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_lexicon (agent_id, docs, length_sum)
  VALUES (OLD.agent_id, -1, -length(OLD.description_tsv)), (NEW.agent_id, 1, length(NEW.description_tsv));
  INSERT INTO agent_lexemes (agent_id, lexeme, docs)
  SELECT agent_id, l, sum(d) FROM (
    SELECT OLD.agent_id AS agent_id, unnest(tsvector_to_array(OLD.description_tsv)) AS l, -1 AS d
    UNION ALL SELECT NEW.agent_id, unnest(tsvector_to_array(NEW.description_tsv)), 1
  ) x GROUP BY agent_id, l HAVING sum(d) <> 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION memstream_lexicon_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE agent_lexicon, agent_lexemes;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memories_lexicon_inserted AFTER INSERT ON memories
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_lexicon_inserted();
--> statement-breakpoint
CREATE TRIGGER memories_lexicon_deleted AFTER DELETE ON memories
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_lexicon_deleted();
--> statement-breakpoint
CREATE TRIGGER memories_lexicon_edited AFTER UPDATE OF description, agent_id, id ON memories FOR EACH ROW
WHEN (OLD.description_tsv IS DISTINCT FROM NEW.description_tsv OR OLD.agent_id <> NEW.agent_id OR OLD.id <> NEW.id)
EXECUTE FUNCTION memstream_lexicon_edited();
--> statement-breakpoint
CREATE TRIGGER memories_lexicon_truncated AFTER TRUNCATE ON memories
FOR EACH STATEMENT EXECUTE FUNCTION memstream_lexicon_truncated();
--> statement-breakpoint
-- The memories written before this migration.
INSERT INTO agent_lexicon (agent_id, docs, length_sum)
SELECT agent_id, count(*), sum(length(description_tsv)) FROM memories GROUP BY agent_id;
--> statement-breakpoint
INSERT INTO agent_lexemes (agent_id, lexeme, docs)
SELECT m.agent_id, l, count(*) FROM memories m CROSS JOIN LATERAL unnest(tsvector_to_array(m.description_tsv)) l
GROUP BY m.agent_id, l;
