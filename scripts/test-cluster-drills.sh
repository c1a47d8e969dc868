#!/usr/bin/env bash
# `npm run test:cluster-drills`: the cluster under change (docs/operations.md, "Changing the
# cluster"). A Citus cluster of its own (a coordinator and two workers, scripts/citus-cluster.sh in a
# directory apart from `npm run test:citus`'s), fresh every run since the drills add and stop nodes,
# and stopped afterwards; Redis is the usual test Redis (the failover drill starts a Redis Cluster
# with replicas of its own). Each drill prints its figures as one `cluster drill …:` line.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-citus.sh
export MEMSTREAM_CITUS_DIR="${TMPDIR:-/tmp}/memstream-citus-drills-$(pwd | cksum | cut -d' ' -f1)"
bash scripts/citus-cluster.sh stop
trap 'bash scripts/citus-cluster.sh stop' EXIT
TEST_DATABASE_URL="$(bash scripts/citus-cluster.sh start)"
export TEST_DATABASE_URL TEST_DISTRIBUTED=citus
echo "test:cluster-drills: coordinator at ${TEST_DATABASE_URL}"
bash scripts/test.sh --config vitest.cluster-drills.config.ts "$@"
