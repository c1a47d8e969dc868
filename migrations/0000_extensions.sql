-- Custom migration: extensions the schema needs. pgvector must be installed on the server
-- (scripts/install-pgvector.sh on Debian; the pgvector/pgvector image in docker-compose.yml).
CREATE EXTENSION IF NOT EXISTS vector;
