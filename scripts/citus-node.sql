-- Every node of a memstream Citus cluster, in database `memstream`: Citus first (it must be the
-- first extension loaded), then the project's own (pgvector, btree_gin for the lexical GIN index).
-- Used by scripts/citus-cluster.sh and by the compose `citus` profile (docker-entrypoint-initdb.d).
CREATE EXTENSION IF NOT EXISTS citus;
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gin;
