ALTER TABLE "memories" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "memories_agent_expires_idx" ON "memories" USING btree ("agent_id","expires_at") WHERE "memories"."expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "memories_expires_idx" ON "memories" USING btree ("expires_at") WHERE "memories"."expires_at" IS NOT NULL;