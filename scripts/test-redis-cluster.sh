#!/usr/bin/env bash
# `npm run test:redis-cluster`: the pipeline's no-loss drills with BullMQ on a local three-node Redis
# Cluster (scripts/redis-cluster.sh), started when not running and stopped afterwards
# (REDIS_CLUSTER_KEEP=1 keeps it). PostgreSQL is the usual test database.
set -euo pipefail
cd "$(dirname "$0")/.."
was_running=1
bash scripts/redis-cluster.sh url >/dev/null 2>&1 || was_running=0
TEST_REDIS_URL="$(bash scripts/redis-cluster.sh start)"
if [ "${was_running}" = 0 ] && [ "${REDIS_CLUSTER_KEEP:-0}" != 1 ]; then
  trap 'bash scripts/redis-cluster.sh stop' EXIT
fi
export TEST_REDIS_URL TEST_REDIS_CLUSTER=1
echo "test:redis-cluster: cluster node at ${TEST_REDIS_URL}"
bash scripts/test.sh --config vitest.redis-cluster.config.ts "$@"
