-- Per-lexeme document frequencies are no longer kept (docs/adr/0024-lexical-statistics.md,
-- "Per-lexeme rows dropped"): no ranking statement read them (BM25 counts a query lexeme's
-- document frequency from its postings, which it reads anyway), and writing one row per distinct
-- lexeme of every insert was most of the statistics' cost: 17.7 against 8.3 ms for an INSERT of
-- 250 memories (6.4 ms with no statistics and no GIN index). The triggers keep the per-agent
-- document count and length sum as before; each keeps 0018's form (arrays, not a transition table
-- in INSERT ... SELECT) so Citus can run it.
CREATE OR REPLACE FUNCTION memstream_lexicon_fold(agent text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('memstream.lexicon'), hashtext(agent)) THEN RETURN; END IF;
  WITH gone AS (DELETE FROM agent_lexicon WHERE agent_id = agent RETURNING docs, length_sum)
  INSERT INTO agent_lexicon (agent_id, docs, length_sum)
  SELECT agent, sum(docs), sum(length_sum) FROM gone HAVING count(*) > 0 AND sum(docs) <> 0;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION memstream_lexicon_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE a text; v_agents text[]; v_docs bigint[]; v_lens bigint[];
BEGIN
  SELECT array_agg(s.agent_id), array_agg(s.n), array_agg(s.len) INTO v_agents, v_docs, v_lens
  FROM (SELECT r.agent_id, count(*) AS n, sum(length(r.description_tsv)) AS len FROM new_rows r GROUP BY r.agent_id) s;
  INSERT INTO agent_lexicon (agent_id, docs, length_sum) SELECT * FROM unnest(v_agents, v_docs, v_lens);
  -- 32 statements' rows at most before they are folded (each adds one count row per agent).
  FOREACH a IN ARRAY coalesce(v_agents, '{}') LOOP
    IF (SELECT count(*) FROM (SELECT 1 FROM agent_lexicon WHERE agent_id = a LIMIT 33) s) > 32 THEN
      PERFORM memstream_lexicon_fold(a);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION memstream_lexicon_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT agent_id, count(*) AS docs, sum(length(description_tsv)) AS len FROM old_rows GROUP BY agent_id LOOP
    -- Every memory of the agent gone: its statistics go whole (as in migration 0016).
    PERFORM pg_advisory_xact_lock(hashtext('memstream.lexicon'), hashtext(r.agent_id));
    IF (SELECT coalesce(sum(docs), 0) FROM agent_lexicon WHERE agent_id = r.agent_id) <= r.docs THEN
      DELETE FROM agent_lexicon WHERE agent_id = r.agent_id;
    ELSE
      INSERT INTO agent_lexicon (agent_id, docs, length_sum) VALUES (r.agent_id, -r.docs, -r.len);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A description edit: the memory's length swaps (its lexemes no longer count anywhere).
CREATE OR REPLACE FUNCTION memstream_lexicon_edited() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_lexicon (agent_id, docs, length_sum)
  VALUES (OLD.agent_id, -1, -length(OLD.description_tsv)), (NEW.agent_id, 1, length(NEW.description_tsv));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION memstream_lexicon_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE agent_lexicon;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TABLE "agent_lexemes" CASCADE;
