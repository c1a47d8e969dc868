CREATE TABLE "llm_scope_spend" (
	"scope" text NOT NULL,
	"day" date NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "llm_scope_spend_scope_day_pk" PRIMARY KEY("scope","day")
);
