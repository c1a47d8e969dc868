ALTER TABLE "agent_settings" ADD COLUMN "retention" jsonb;--> statement-breakpoint
ALTER TABLE "agent_settings" ADD COLUMN "forgotten" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_settings" ADD COLUMN "retained_at" timestamp with time zone;