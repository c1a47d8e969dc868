-- Keep vectors in the row up to a full page (~2,000 dimensions) instead of out of line in the
-- TOAST table from ~500 dimensions on (the default target is ~2 kB). Every exact retrieve reads
-- all of an agent's vectors, and an out-of-line vector costs a TOAST index probe plus two
-- chunk reads: the raw distance scan was 2.7x slower at 100k 512-d vectors (docs/adr/0006).
-- Larger vectors are still moved out of line (storage EXTERNAL: floats do not compress).
-- Only rows written from now on are affected; `VACUUM FULL memory_embeddings` rewrites old ones.
ALTER TABLE "memory_embeddings" SET (toast_tuple_target = 8160);
