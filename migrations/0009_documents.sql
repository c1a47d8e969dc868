CREATE TABLE "documents" (
	"agent_id" text NOT NULL,
	"source" text NOT NULL,
	"title" text,
	"format" text NOT NULL,
	"content_hash" text NOT NULL,
	"sections" integer NOT NULL,
	"tokens" integer NOT NULL,
	"imported_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "documents_agent_id_source_pk" PRIMARY KEY("agent_id","source")
);
--> statement-breakpoint
ALTER TABLE "memories" DROP CONSTRAINT "memories_kind_check";--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_kind_check" CHECK ("memories"."kind" IN ('observation', 'reflection', 'plan', 'document'));