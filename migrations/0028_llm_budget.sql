CREATE TABLE "llm_spend" (
	"agent_id" text NOT NULL,
	"day" date NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "llm_spend_agent_id_day_pk" PRIMARY KEY("agent_id","day")
);
--> statement-breakpoint
ALTER TABLE "agent_settings" ADD COLUMN "llm_budget" jsonb;