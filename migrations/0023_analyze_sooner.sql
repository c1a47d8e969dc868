-- Statistics follow a bulk write within autovacuum's next round, not after a tenth of the table
-- has changed (docs/adr/0032-ranking-in-phases.md): a statement planned on a table whose
-- statistics predate an import of 20,000 memories took 22-57 s (issue 41). Autovacuum analyzes a
-- table once 1,000 rows plus 2 % of it changed (the defaults are 50 rows plus 10 %: a
-- 10-million-row table waited for a million changes).
ALTER TABLE memories SET (autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 1000);
--> statement-breakpoint
ALTER TABLE memory_embeddings SET (autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 1000);
