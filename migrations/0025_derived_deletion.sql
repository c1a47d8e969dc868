CREATE TABLE "erasure_receipts" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"epoch" integer NOT NULL,
	"erased_at" timestamp with time zone NOT NULL,
	"rows" jsonb NOT NULL,
	"memories_by_kind" jsonb NOT NULL,
	"cancelled" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "erasure_receipts_agent_idx" ON "erasure_receipts" USING btree ("agent_id","erased_at");--> statement-breakpoint
CREATE INDEX "memories_agent_citations_idx" ON "memories" USING gin ("agent_id","citations") WHERE cardinality("memories"."citations") > 0;