CREATE TABLE "github_event_keys" (
	"agent_id" text NOT NULL,
	"key" text NOT NULL,
	"memory_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "github_event_keys_agent_id_key_pk" PRIMARY KEY("agent_id","key")
);
--> statement-breakpoint
CREATE TABLE "github_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"repo" text NOT NULL,
	"agent_ids" text[] NOT NULL,
	"since" timestamp with time zone,
	"status" text DEFAULT 'queued' NOT NULL,
	"phase" text,
	"cursor" text,
	"counts" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "github_imports_status_check" CHECK ("github_imports"."status" IN ('queued', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "github_event_keys" ADD CONSTRAINT "github_event_keys_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "github_event_keys_memory_idx" ON "github_event_keys" USING btree ("memory_id");--> statement-breakpoint
CREATE INDEX "github_imports_repo_idx" ON "github_imports" USING btree ("repo","created_at" DESC NULLS LAST);