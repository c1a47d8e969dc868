ALTER TABLE "agent_settings" ADD COLUMN "learn_weights" boolean;--> statement-breakpoint
ALTER TABLE "agent_settings" ADD COLUMN "learned" jsonb;