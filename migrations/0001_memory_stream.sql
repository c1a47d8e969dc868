CREATE TABLE "agent_settings" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"reflection_threshold" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "github_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"action" text,
	"status" text DEFAULT 'received' NOT NULL,
	"reason" text,
	"agent_ids" text[] DEFAULT '{}' NOT NULL,
	"observations" integer DEFAULT 0 NOT NULL,
	"payload" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "memories" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_accessed_at" timestamp with time zone NOT NULL,
	"inserted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"importance" smallint,
	"importance_status" text DEFAULT 'pending' NOT NULL,
	"importance_error" text,
	"importance_source" text,
	"embedding_status" text DEFAULT 'pending' NOT NULL,
	"embedding_error" text,
	"embedding_model" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"citations" text[] DEFAULT '{}'::text[] NOT NULL,
	"prompt_version" text,
	CONSTRAINT "memories_kind_check" CHECK ("memories"."kind" IN ('observation', 'reflection', 'plan')),
	CONSTRAINT "memories_importance_check" CHECK ("memories"."importance" IS NULL OR "memories"."importance" BETWEEN 1 AND 10),
	CONSTRAINT "memories_importance_status_check" CHECK ("memories"."importance_status" IN ('pending', 'ready', 'failed')),
	CONSTRAINT "memories_embedding_status_check" CHECK ("memories"."embedding_status" IN ('pending', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "memory_embeddings" (
	"memory_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"model" text NOT NULL,
	"dimensions" integer NOT NULL,
	"embedding" vector NOT NULL,
	"revision" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_embeddings_memory_id_model_pk" PRIMARY KEY("memory_id","model")
);
--> statement-breakpoint
CREATE TABLE "reflection_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"prompt_version" text,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"insight_ids" text[] DEFAULT '{}' NOT NULL,
	"prompt_tokens" integer DEFAULT 0 NOT NULL,
	"completion_tokens" integer DEFAULT 0 NOT NULL,
	"llm_calls" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "memory_embeddings" ADD CONSTRAINT "memory_embeddings_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "github_deliveries_received_idx" ON "github_deliveries" USING btree ("received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "memories_agent_created_idx" ON "memories" USING btree ("agent_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "memories_agent_importance_idx" ON "memories" USING btree ("agent_id","importance");--> statement-breakpoint
CREATE INDEX "memories_metadata_idx" ON "memories" USING gin ("metadata" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "memories_pending_idx" ON "memories" USING btree ("updated_at") WHERE "memories"."importance_status" = 'pending' OR "memories"."embedding_status" = 'pending';--> statement-breakpoint
CREATE INDEX "memory_embeddings_agent_model_idx" ON "memory_embeddings" USING btree ("agent_id","model");--> statement-breakpoint
CREATE INDEX "reflection_runs_agent_idx" ON "reflection_runs" USING btree ("agent_id","started_at" DESC NULLS LAST);