ALTER TABLE "memories" ADD COLUMN "superseded_by" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "valid_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "memories_agent_superseded_by_idx" ON "memories" USING btree ("agent_id","superseded_by") WHERE "memories"."superseded_by" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_superseded_check" CHECK (("memories"."superseded_by" IS NULL) = ("memories"."valid_until" IS NULL) AND "memories"."superseded_by" IS DISTINCT FROM "memories"."id");