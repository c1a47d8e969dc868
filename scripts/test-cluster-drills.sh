#!/usr/bin/env bash
# `npm run test:cluster-drills`: the cluster under change (docs/operations.md, "Changing the
# cluster"). A Citus cluster of its own (a coordinator and two workers, scripts/citus-cluster.sh in a
# directory apart from `npm run test:citus`'s), fresh every run since the drills add and stop nodes,
# and stopped afterwards; Redis is the usual test Redis, and the failover drill's a Redis Cluster of
# three primaries with a replica each (scripts/redis-cluster.sh), also fresh and stopped afterwards.
# Each drill prints its figures as one `cluster drill …:` line.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-citus.sh
export MEMSTREAM_CITUS_DIR="${TMPDIR:-/tmp}/memstream-citus-drills-$(pwd | cksum | cut -d' ' -f1)"
export MEMSTREAM_REDIS_CLUSTER_DIR="${TMPDIR:-/tmp}/memstream-redis-failover-$(pwd | cksum | cut -d' ' -f1)"
export REDIS_CLUSTER_REPLICAS=1 REDIS_CLUSTER_NODE_TIMEOUT=3000
bash scripts/citus-cluster.sh stop
bash scripts/redis-cluster.sh stop
trap 'bash scripts/citus-cluster.sh stop; bash scripts/redis-cluster.sh stop' EXIT
TEST_DATABASE_URL="$(bash scripts/citus-cluster.sh start)"
TEST_FAILOVER_REDIS_URL="$(bash scripts/redis-cluster.sh start)"
export TEST_DATABASE_URL TEST_DISTRIBUTED=citus TEST_FAILOVER_REDIS_URL
echo "test:cluster-drills: coordinator at ${TEST_DATABASE_URL}"
bash scripts/test.sh --config vitest.cluster-drills.config.ts "$@"
