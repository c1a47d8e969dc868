CREATE TABLE "retrieval_log" (
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"candidates" jsonb NOT NULL,
	"used" text[],
	"unused" text[],
	"feedback_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "retrieval_log_agent_id_id_pk" PRIMARY KEY("agent_id","id")
);
--> statement-breakpoint
CREATE INDEX "retrieval_log_agent_created_idx" ON "retrieval_log" USING btree ("agent_id","created_at");