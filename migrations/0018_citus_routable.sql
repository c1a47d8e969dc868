-- Statements Citus can run (docs/adr/0011-scale-out.md). The lexicon triggers of migration 0016: each
-- reads its transition table into arrays first and inserts from those. Same rows as before; but an
-- INSERT ... SELECT that reads a transition table cannot run on Citus, whose planner does not see
-- the trigger's tuplestore ("could not find named tuplestore"), while one that reads arrays can.
CREATE OR REPLACE FUNCTION memstream_lexicon_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE a text; v_agents text[]; v_docs bigint[]; v_lens bigint[]; v_lagents text[]; v_lexemes text[]; v_ldocs bigint[];
BEGIN
  SELECT array_agg(s.agent_id), array_agg(s.n), array_agg(s.len) INTO v_agents, v_docs, v_lens
  FROM (SELECT r.agent_id, count(*) AS n, sum(length(r.description_tsv)) AS len FROM new_rows r GROUP BY r.agent_id) s;
  SELECT array_agg(s.agent_id), array_agg(s.l), array_agg(s.n) INTO v_lagents, v_lexemes, v_ldocs
  FROM (SELECT r.agent_id, l, count(*) AS n FROM new_rows r CROSS JOIN LATERAL unnest(tsvector_to_array(r.description_tsv)) l GROUP BY r.agent_id, l) s;
  INSERT INTO agent_lexicon (agent_id, docs, length_sum) SELECT * FROM unnest(v_agents, v_docs, v_lens);
  INSERT INTO agent_lexemes (agent_id, lexeme, docs) SELECT * FROM unnest(v_lagents, v_lexemes, v_ldocs);
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
DECLARE r record; v_lexemes text[]; v_ldocs bigint[];
BEGIN
  FOR r IN SELECT agent_id, count(*) AS docs, sum(length(description_tsv)) AS len FROM old_rows GROUP BY agent_id LOOP
    -- Every memory of the agent gone: its statistics go whole (as in migration 0016).
    PERFORM pg_advisory_xact_lock(hashtext('memstream.lexicon'), hashtext(r.agent_id));
    IF (SELECT coalesce(sum(docs), 0) FROM agent_lexicon WHERE agent_id = r.agent_id) <= r.docs THEN
      DELETE FROM agent_lexicon WHERE agent_id = r.agent_id;
      DELETE FROM agent_lexemes WHERE agent_id = r.agent_id;
    ELSE
      INSERT INTO agent_lexicon (agent_id, docs, length_sum) VALUES (r.agent_id, -r.docs, -r.len);
      SELECT array_agg(s.l), array_agg(s.n) INTO v_lexemes, v_ldocs
      FROM (SELECT l, -count(*) AS n FROM old_rows o CROSS JOIN LATERAL unnest(tsvector_to_array(o.description_tsv)) l
            WHERE o.agent_id = r.agent_id GROUP BY l) s;
      INSERT INTO agent_lexemes (agent_id, lexeme, docs) SELECT r.agent_id, x.l, x.n FROM unnest(v_lexemes, v_ldocs) x(l, n);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A timestamptz as ISO 8601 UTC text with milliseconds (src/db/iso.ts). IMMUTABLE, which it is:
-- the format has only numeric fields and the zone is fixed. Citus refuses a STABLE function (as
-- to_char is declared) in the RETURNING clause of a write on a distributed table.
CREATE FUNCTION memstream_iso(ts timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
