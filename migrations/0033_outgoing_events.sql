CREATE TABLE "event_deliveries" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"payload" jsonb NOT NULL,
	"content" boolean NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redelivery_of" text,
	CONSTRAINT "event_deliveries_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "event_deliveries_status_check" CHECK ("event_deliveries"."status" IN ('pending', 'delivered', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "event_subscriptions" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"events" text[] NOT NULL,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"disabled_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_subscriptions_agent_id_id_pk" PRIMARY KEY("agent_id","id"),
	CONSTRAINT "event_subscriptions_status_check" CHECK ("event_subscriptions"."status" IN ('active', 'disabled'))
);
--> statement-breakpoint
ALTER TABLE "event_deliveries" ADD CONSTRAINT "event_deliveries_subscription_fk" FOREIGN KEY ("agent_id","subscription_id") REFERENCES "public"."event_subscriptions"("agent_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_deliveries_subscription_idx" ON "event_deliveries" USING btree ("agent_id","subscription_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "event_deliveries_pending_idx" ON "event_deliveries" USING btree ("next_attempt_at","agent_id","id") WHERE "event_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "event_deliveries_agent_pending_idx" ON "event_deliveries" USING btree ("agent_id","next_attempt_at") WHERE "event_deliveries"."status" = 'pending';--> statement-breakpoint
-- The outbox (src/outgoing, docs/events.md): the triggers below write one event_deliveries row per
-- event and subscribed URL in the transaction of the change itself, so a rolled-back write sends
-- nothing and a committed one is never lost, whatever path wrote it (API, jobs, retention, import).
-- Each first asks whether any agent of the statement has an active subscription (one index probe
-- on event_subscriptions) and does nothing more when none has. Rows are read into arrays before
-- any insert: on Citus the insert is planned by Citus, which cannot see a transition table.
-- PL/pgSQL, not SQL: Citus cannot route an SQL function's parameterized statement.
CREATE FUNCTION memstream_event_subscribed(p_agents text[]) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM event_subscriptions WHERE agent_id = ANY(p_agents) AND status = 'active');
END
$$;
--> statement-breakpoint
-- Memories that moved between tiers rather than being written or deleted: compaction inserts them in
-- memory_archive before deleting them from memories, expansion inserts them in memories before
-- deleting them from the archive. Keys are agent and id joined by a unit separator (no agent id holds one).
CREATE FUNCTION memstream_event_in_tier(p_tier text, p_agents text[], p_ids text[]) RETURNS text[]
LANGUAGE plpgsql STABLE AS $$
DECLARE v text[];
BEGIN
  IF p_tier = 'memory_archive' THEN
    SELECT array_agg(a.agent_id || E'\x1f' || a.id) INTO v FROM memory_archive a
      WHERE a.agent_id = ANY(p_agents) AND a.id = ANY(p_ids);
  ELSE
    SELECT array_agg(m.agent_id || E'\x1f' || m.id) INTO v FROM memories m
      WHERE m.agent_id = ANY(p_agents) AND m.id = ANY(p_ids);
  END IF;
  RETURN coalesce(v, '{}');
END
$$;
--> statement-breakpoint
-- One delivery per event and active subscription that names the event's type.
CREATE FUNCTION memstream_event_record(p_agents text[], p_events text[], p_payloads jsonb[], p_content boolean[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE s_agents text[]; s_ids text[]; s_events text[]; v_ids text[];
BEGIN
  IF coalesce(cardinality(p_agents), 0) = 0 THEN RETURN; END IF;
  SELECT array_agg(s.agent_id), array_agg(s.id), array_agg(array_to_string(s.events, ','))
    INTO s_agents, s_ids, s_events
    FROM event_subscriptions s WHERE s.agent_id = ANY(p_agents) AND s.status = 'active';
  IF s_ids IS NULL THEN RETURN; END IF;
  SELECT array_agg('evt_' || replace(gen_random_uuid()::text, '-', '')) INTO v_ids
    FROM generate_series(1, cardinality(p_agents));
  INSERT INTO event_deliveries (agent_id, id, subscription_id, event_id, event, payload, content)
  SELECT e.agent_id, 'evd_' || replace(gen_random_uuid()::text, '-', ''), s.id, e.event_id, e.event,
    e.payload, e.content
  FROM unnest(p_agents, v_ids, p_events, p_payloads, p_content) AS e(agent_id, event_id, event, payload, content)
  JOIN unnest(s_agents, s_ids, s_events) AS s(agent_id, id, events)
    ON s.agent_id = e.agent_id AND e.event = ANY(string_to_array(s.events, ','));
END
$$;
--> statement-breakpoint
-- memory.written / reflection.written (a lesson's memory is told by lesson.written, below; a memory
-- promoted back from the archive was written before).
CREATE FUNCTION memstream_event_memories_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE v_agents text[]; v_ids text[]; v_moved text[]; a text[]; e text[]; p jsonb[]; c boolean[];
BEGIN
  SELECT array_agg(DISTINCT r.agent_id), array_agg(r.id) INTO v_agents, v_ids FROM changed_rows r;
  -- An empty statement names no agent (on Citus, no shard: the probe could not be routed).
  IF v_agents IS NULL OR NOT memstream_event_subscribed(v_agents) THEN RETURN NULL; END IF;
  v_moved := memstream_event_in_tier('memory_archive', v_agents, v_ids);
  SELECT array_agg(r.agent_id),
    array_agg(CASE WHEN r.kind = 'reflection' THEN 'reflection.written' ELSE 'memory.written' END),
    array_agg(jsonb_build_object('memory', jsonb_build_object(
      'id', r.id, 'kind', r.kind, 'description', r.description, 'createdAt', memstream_iso(r.created_at),
      'importance', r.importance, 'embeddingModel', r.embedding_model, 'metadata', r.metadata,
      'citations', to_jsonb(r.citations), 'expiresAt', memstream_iso(r.expires_at),
      'status', jsonb_build_object('importance', r.importance_status, 'embedding', r.embedding_status)))),
    array_agg(true)
    INTO a, e, p, c
    FROM changed_rows r WHERE r.kind <> 'lesson' AND NOT ((r.agent_id || E'\x1f' || r.id) = ANY(v_moved));
  PERFORM memstream_event_record(a, e, p, c);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- memory.deleted: ids only (no content), at most 1,000 per event; from either tier, but not for a
-- memory that moved to the other tier in this transaction (TG_ARGV[0]: the other tier).
CREATE FUNCTION memstream_event_memories_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE v_agents text[]; v_ids text[]; v_moved text[]; a text[]; e text[]; p jsonb[]; c boolean[];
BEGIN
  SELECT array_agg(DISTINCT r.agent_id), array_agg(r.id) INTO v_agents, v_ids FROM changed_rows r;
  -- An empty statement names no agent (on Citus, no shard: the probe could not be routed).
  IF v_agents IS NULL OR NOT memstream_event_subscribed(v_agents) THEN RETURN NULL; END IF;
  v_moved := memstream_event_in_tier(TG_ARGV[0], v_agents, v_ids);
  SELECT array_agg(g.agent_id), array_agg('memory.deleted'::text),
    array_agg(jsonb_build_object('memoryIds', to_jsonb(g.ids), 'count', cardinality(g.ids))), array_agg(false)
    INTO a, e, p, c
    FROM (SELECT x.agent_id, array_agg(x.id ORDER BY x.id) AS ids
          FROM (SELECT r.agent_id, r.id, (row_number() OVER (PARTITION BY r.agent_id ORDER BY r.id) - 1) / 1000 AS part
                FROM changed_rows r WHERE NOT ((r.agent_id || E'\x1f' || r.id) = ANY(v_moved))) x
          GROUP BY x.agent_id, x.part) g;
  PERFORM memstream_event_record(a, e, p, c);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- memory.enriched (its last pending field became ready) and memory.superseded; row-level with a
-- WHEN, so touches, claims and every other update never call it.
CREATE FUNCTION memstream_event_memory_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT memstream_event_subscribed(ARRAY[NEW.agent_id]) THEN RETURN NULL; END IF;
  IF TG_ARGV[0] = 'enriched' THEN
    PERFORM memstream_event_record(ARRAY[NEW.agent_id], ARRAY['memory.enriched'::text],
      ARRAY[jsonb_build_object('memory', jsonb_build_object(
        'id', NEW.id, 'kind', NEW.kind, 'description', NEW.description, 'revision', NEW.revision,
        'importance', NEW.importance, 'importanceSource', NEW.importance_source,
        'embeddingModel', NEW.embedding_model, 'metadata', NEW.metadata))],
      ARRAY[true]);
  ELSE
    PERFORM memstream_event_record(ARRAY[NEW.agent_id], ARRAY['memory.superseded'::text],
      ARRAY[jsonb_build_object('memoryId', NEW.id, 'supersededBy', NEW.superseded_by,
        'validUntil', memstream_iso(NEW.valid_until))],
      ARRAY[false]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- lesson.written: a lesson's new revision (a new lesson, or a consolidation that changed it).
CREATE FUNCTION memstream_event_lessons_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE v_agents text[]; a text[]; e text[]; p jsonb[]; c boolean[];
BEGIN
  SELECT array_agg(DISTINCT r.agent_id) INTO v_agents FROM changed_rows r;
  -- An empty statement names no agent (on Citus, no shard: the probe could not be routed).
  IF v_agents IS NULL OR NOT memstream_event_subscribed(v_agents) THEN RETURN NULL; END IF;
  SELECT array_agg(r.agent_id), array_agg('lesson.written'::text),
    array_agg(jsonb_build_object('lesson', jsonb_build_object(
      'id', r.lesson_id, 'revision', r.revision, 'taskType', r.task_type, 'polarity', r.polarity,
      'description', r.description, 'confidence', r.confidence, 'outcomeIds', to_jsonb(r.outcome_ids)))),
    array_agg(true)
    INTO a, e, p, c
    FROM changed_rows r;
  PERFORM memstream_event_record(a, e, p, c);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memories_events_inserted AFTER INSERT ON memories
REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_event_memories_inserted();
--> statement-breakpoint
CREATE TRIGGER memories_events_deleted AFTER DELETE ON memories
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_event_memories_deleted('memory_archive');
--> statement-breakpoint
CREATE TRIGGER memory_archive_events_deleted AFTER DELETE ON memory_archive
REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_event_memories_deleted('memories');
--> statement-breakpoint
CREATE TRIGGER memories_events_enriched AFTER UPDATE ON memories FOR EACH ROW
WHEN (NEW.importance_status = 'ready' AND NEW.embedding_status = 'ready'
  AND (OLD.importance_status <> 'ready' OR OLD.embedding_status <> 'ready'))
EXECUTE FUNCTION memstream_event_memory_updated('enriched');
--> statement-breakpoint
CREATE TRIGGER memories_events_superseded AFTER UPDATE ON memories FOR EACH ROW
WHEN (OLD.superseded_by IS NULL AND NEW.superseded_by IS NOT NULL)
EXECUTE FUNCTION memstream_event_memory_updated('superseded');
--> statement-breakpoint
CREATE TRIGGER lesson_revisions_events_inserted AFTER INSERT ON lesson_revisions
REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION memstream_event_lessons_inserted();
