ALTER TABLE "memories" ADD COLUMN "importance_claimed_by" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "importance_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "embedding_claimed_by" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "embedding_claimed_until" timestamp with time zone;