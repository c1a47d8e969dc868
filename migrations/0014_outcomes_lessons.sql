CREATE TABLE "lesson_revisions" (
	"agent_id" text NOT NULL,
	"lesson_id" text NOT NULL,
	"revision" integer NOT NULL,
	"task_type" text,
	"polarity" text NOT NULL,
	"description" text NOT NULL,
	"stats" jsonb NOT NULL,
	"confidence" double precision NOT NULL,
	"outcome_ids" text[] NOT NULL,
	"wording" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_revisions_agent_id_lesson_id_revision_pk" PRIMARY KEY("agent_id","lesson_id","revision")
);
--> statement-breakpoint
CREATE TABLE "outcomes" (
	"agent_id" text NOT NULL,
	"memory_id" text NOT NULL,
	"task" text NOT NULL,
	"task_type" text,
	"success" boolean NOT NULL,
	"strategy" text,
	"error" text,
	"duration_ms" integer,
	"consolidated_at" timestamp with time zone,
	"inserted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outcomes_agent_id_memory_id_pk" PRIMARY KEY("agent_id","memory_id")
);
--> statement-breakpoint
ALTER TABLE "memories" DROP CONSTRAINT "memories_kind_check";--> statement-breakpoint
ALTER TABLE "agent_settings" ADD COLUMN "lessons" jsonb;--> statement-breakpoint
ALTER TABLE "lesson_revisions" ADD CONSTRAINT "lesson_revisions_agent_id_lesson_id_memories_agent_id_id_fk" FOREIGN KEY ("agent_id","lesson_id") REFERENCES "public"."memories"("agent_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outcomes" ADD CONSTRAINT "outcomes_agent_id_memory_id_memories_agent_id_id_fk" FOREIGN KEY ("agent_id","memory_id") REFERENCES "public"."memories"("agent_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_revisions_agent_task_type_idx" ON "lesson_revisions" USING btree ("agent_id","task_type");--> statement-breakpoint
CREATE INDEX "outcomes_agent_task_type_idx" ON "outcomes" USING btree ("agent_id","task_type","inserted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "outcomes_unconsolidated_idx" ON "outcomes" USING btree ("inserted_at") WHERE "outcomes"."consolidated_at" IS NULL;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_kind_check" CHECK ("memories"."kind" IN ('observation', 'reflection', 'plan', 'document', 'outcome', 'lesson'));