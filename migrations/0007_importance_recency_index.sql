DROP INDEX "memories_agent_importance_idx";--> statement-breakpoint
CREATE INDEX "memories_agent_importance_accessed_idx" ON "memories" USING btree ("agent_id","importance","last_accessed_at","id");