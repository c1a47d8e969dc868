#!/usr/bin/env bash
# `npm run test:citus`: the data-path tests against a local Citus cluster (a coordinator and two
# workers; scripts/citus-cluster.sh), with the tables distributed by agent_id
# (MEMSTREAM_DISTRIBUTED=citus). Builds Citus when missing (scripts/install-citus.sh, ~10-15 min
# once), starts the cluster when it is not running and stops it again afterwards (CITUS_KEEP=1
# keeps it for the next run), on a fresh database every run. Redis is the usual test Redis.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-citus.sh
was_running=1
bash scripts/citus-cluster.sh url >/dev/null 2>&1 || was_running=0
bash scripts/citus-cluster.sh start >/dev/null
if [ "${was_running}" = 0 ] && [ "${CITUS_KEEP:-0}" != 1 ]; then
  trap 'bash scripts/citus-cluster.sh stop' EXIT
fi
TEST_DATABASE_URL="$(bash scripts/citus-cluster.sh reset)"
export TEST_DATABASE_URL TEST_DISTRIBUTED=citus
echo "test:citus: coordinator at ${TEST_DATABASE_URL}"
npx vitest run --config vitest.citus.config.ts "$@"
