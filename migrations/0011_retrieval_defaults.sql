ALTER TABLE "agent_settings" ADD COLUMN IF NOT EXISTS "retrieval" jsonb;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "memories_agent_embedding_pending_idx" ON "memories" USING btree ("agent_id","inserted_at" DESC NULLS LAST) WHERE "memories"."embedding_status" = 'pending';
