-- Keys lead with agent_id (Citus-compatible, ADR 0010). Primary key names written by hand: drizzle-kit
-- cannot read them (memories_pkey, reflection_runs_pkey are PostgreSQL's defaults).
ALTER TABLE "github_event_keys" DROP CONSTRAINT "github_event_keys_memory_id_memories_id_fk";
--> statement-breakpoint
ALTER TABLE "memory_embeddings" DROP CONSTRAINT "memory_embeddings_memory_id_memories_id_fk";
--> statement-breakpoint
DROP INDEX "github_event_keys_memory_idx";--> statement-breakpoint
ALTER TABLE "memory_embeddings" DROP CONSTRAINT "memory_embeddings_memory_id_model_pk";--> statement-breakpoint
ALTER TABLE "memories" DROP CONSTRAINT "memories_pkey";--> statement-breakpoint
ALTER TABLE "reflection_runs" DROP CONSTRAINT "reflection_runs_pkey";--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_agent_id_id_pk" PRIMARY KEY("agent_id","id");--> statement-breakpoint
ALTER TABLE "memory_embeddings" ADD CONSTRAINT "memory_embeddings_agent_id_memory_id_model_pk" PRIMARY KEY("agent_id","memory_id","model");--> statement-breakpoint
ALTER TABLE "reflection_runs" ADD CONSTRAINT "reflection_runs_agent_id_id_pk" PRIMARY KEY("agent_id","id");--> statement-breakpoint
ALTER TABLE "github_event_keys" ADD CONSTRAINT "github_event_keys_agent_id_memory_id_memories_agent_id_id_fk" FOREIGN KEY ("agent_id","memory_id") REFERENCES "public"."memories"("agent_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_embeddings" ADD CONSTRAINT "memory_embeddings_agent_id_memory_id_memories_agent_id_id_fk" FOREIGN KEY ("agent_id","memory_id") REFERENCES "public"."memories"("agent_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "github_event_keys_memory_idx" ON "github_event_keys" USING btree ("agent_id","memory_id");