-- Erasure is final (docs/adr/0027): a tombstone per erased agent, and what each GitHub source had
-- seen of erasures when it arrived. Replayed webhook bodies are found by their hash (issue 31).
CREATE TABLE "agent_erasures" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"epoch" integer NOT NULL,
	"seq" bigint NOT NULL,
	"erased_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "github_deliveries" ADD COLUMN "payload_hash" text;--> statement-breakpoint
ALTER TABLE "github_deliveries" ADD COLUMN "erasure_horizon" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "github_imports" ADD COLUMN "erasure_horizon" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "agent_erasures_seq_idx" ON "agent_erasures" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "github_deliveries_payload_hash_idx" ON "github_deliveries" USING btree ("payload_hash");--> statement-breakpoint
-- Orders erases among all agents: a delivery or import records the highest position committed
-- when it arrived (its horizon), so an erase after it is one with a greater position.
CREATE SEQUENCE "agent_erasures_seq";
