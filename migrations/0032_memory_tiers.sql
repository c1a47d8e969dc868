CREATE TABLE "memory_archive" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_accessed_at" timestamp with time zone NOT NULL,
	"inserted_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"revision" integer NOT NULL,
	"importance" smallint,
	"importance_source" text,
	"metadata" jsonb NOT NULL,
	"citations" text[] DEFAULT '{}'::text[] NOT NULL,
	"superseded_by" text,
	"valid_until" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"prompt_version" text,
	"embedding_model" text NOT NULL,
	"embedding" vector NOT NULL,
	"revisions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"summary_id" text NOT NULL,
	"archived_at" timestamp with time zone NOT NULL,
	"expansions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "memory_archive_agent_id_id_pk" PRIMARY KEY("agent_id","id")
);
--> statement-breakpoint
ALTER TABLE "memories" DROP CONSTRAINT "memories_kind_check";--> statement-breakpoint
ALTER TABLE "agent_settings" ADD COLUMN "compaction" jsonb;--> statement-breakpoint
CREATE INDEX "memory_archive_agent_summary_idx" ON "memory_archive" USING btree ("agent_id","summary_id");--> statement-breakpoint
CREATE INDEX "memory_archive_agent_expires_idx" ON "memory_archive" USING btree ("agent_id","expires_at") WHERE "memory_archive"."expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "memory_archive_expires_idx" ON "memory_archive" USING btree ("expires_at") WHERE "memory_archive"."expires_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_kind_check" CHECK ("memories"."kind" IN ('observation', 'reflection', 'plan', 'document', 'outcome', 'lesson', 'summary'));--> statement-breakpoint
-- The archive changes what an expansion answers: its writes invalidate the agent's cached retrieves
-- too, but not an expansion's count (an access, as a touch of memories is not a change).
CREATE TRIGGER memory_archive_generation AFTER INSERT OR DELETE OR UPDATE OF description, importance, metadata, summary_id, expires_at
ON memory_archive FOR EACH ROW
EXECUTE FUNCTION memstream_agent_changed();
