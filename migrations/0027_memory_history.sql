CREATE TABLE "memory_revisions" (
	"agent_id" text NOT NULL,
	"memory_id" text NOT NULL,
	"revision" integer NOT NULL,
	"description" text NOT NULL,
	"importance" smallint,
	"metadata" jsonb NOT NULL,
	"replaced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "memory_revisions_agent_id_memory_id_revision_pk" PRIMARY KEY("agent_id","memory_id","revision")
);
--> statement-breakpoint
ALTER TABLE "memory_revisions" ADD CONSTRAINT "memory_revisions_agent_id_memory_id_memories_agent_id_id_fk" FOREIGN KEY ("agent_id","memory_id") REFERENCES "public"."memories"("agent_id","id") ON DELETE cascade ON UPDATE no action;