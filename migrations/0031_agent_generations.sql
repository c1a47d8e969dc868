CREATE TABLE "agent_generations" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"generation" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_settings" ADD COLUMN "retrieve_cache_ttl_ms" integer;
--> statement-breakpoint
-- A new token for every agent a statement's rows belong to, in agent order (no deadlock between
-- two multi-agent statements). Statement-level on inserts and deletes: one upsert per agent and
-- statement, however many rows. The agents are read into an array first: on Citus the insert is
-- planned by Citus, which cannot see the transition table (as in the lexicon's triggers).
CREATE FUNCTION memstream_agents_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE v_agents text[];
BEGIN
  SELECT array_agg(DISTINCT r.agent_id ORDER BY r.agent_id) INTO v_agents FROM changed_rows r;
  INSERT INTO agent_generations (agent_id, generation)
  SELECT a, gen_random_uuid() FROM unnest(coalesce(v_agents, '{}')) a
  ON CONFLICT (agent_id) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Row-level for updates (transition tables cannot go with a column list): only when a column an
-- answer shows or ranks by changed, so touches (last_accessed_at) and claims never call it.
CREATE FUNCTION memstream_agent_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_generations (agent_id, generation)
  VALUES (coalesce(NEW.agent_id, OLD.agent_id), gen_random_uuid())
  ON CONFLICT (agent_id) DO UPDATE SET generation = excluded.generation;
  IF TG_OP = 'UPDATE' AND NEW.agent_id <> OLD.agent_id THEN
    INSERT INTO agent_generations (agent_id, generation) VALUES (OLD.agent_id, gen_random_uuid())
    ON CONFLICT (agent_id) DO UPDATE SET generation = excluded.generation;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memories_generation_inserted AFTER INSERT ON memories
REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_agents_changed();
--> statement-breakpoint
CREATE TRIGGER memories_generation_deleted AFTER DELETE ON memories
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_agents_changed();
--> statement-breakpoint
CREATE TRIGGER memories_generation_updated AFTER UPDATE ON memories FOR EACH ROW
WHEN ((OLD.agent_id, OLD.kind, OLD.description, OLD.created_at, OLD.revision, OLD.importance,
       OLD.importance_status, OLD.importance_error, OLD.importance_source, OLD.embedding_status,
       OLD.embedding_error, OLD.embedding_model, OLD.metadata, OLD.citations, OLD.superseded_by,
       OLD.valid_until, OLD.expires_at)
  IS DISTINCT FROM (NEW.agent_id, NEW.kind, NEW.description, NEW.created_at, NEW.revision, NEW.importance,
       NEW.importance_status, NEW.importance_error, NEW.importance_source, NEW.embedding_status,
       NEW.embedding_error, NEW.embedding_model, NEW.metadata, NEW.citations, NEW.superseded_by,
       NEW.valid_until, NEW.expires_at))
EXECUTE FUNCTION memstream_agent_changed();
--> statement-breakpoint
CREATE TRIGGER memory_embeddings_generation_inserted AFTER INSERT ON memory_embeddings
REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_agents_changed();
--> statement-breakpoint
CREATE TRIGGER memory_embeddings_generation_deleted AFTER DELETE ON memory_embeddings
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_agents_changed();
--> statement-breakpoint
CREATE TRIGGER memory_embeddings_generation_updated AFTER UPDATE ON memory_embeddings FOR EACH ROW
EXECUTE FUNCTION memstream_agent_changed();
--> statement-breakpoint
-- Settings choose the ranking (preset, weights, learned weights) and the cache's own TTL.
CREATE TRIGGER agent_settings_generation AFTER INSERT OR UPDATE OR DELETE ON agent_settings FOR EACH ROW
EXECUTE FUNCTION memstream_agent_changed();
--> statement-breakpoint
-- A truncate leaves no token: an agent without one is never answered from a cache.
CREATE FUNCTION memstream_generations_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE agent_generations;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memories_generation_truncated AFTER TRUNCATE ON memories
FOR EACH STATEMENT EXECUTE FUNCTION memstream_generations_truncated();
--> statement-breakpoint
INSERT INTO agent_generations (agent_id, generation)
SELECT agent_id, gen_random_uuid() FROM (SELECT DISTINCT agent_id FROM memories) a;
