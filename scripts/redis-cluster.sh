#!/usr/bin/env bash
# A local Redis Cluster on demand: three `redis-server --cluster-enabled yes` primaries on free
# ports (no replicas), slots spread over the three. Used by `npm run test:redis-cluster`; the queues
# reach it with REDIS_CLUSTER=true and REDIS_URL=<any node> (docs/adr/0011-scale-out.md).
# REDIS_CLUSTER_REPLICAS=1 gives each primary a replica (six nodes) that takes over when its primary
# is gone for REDIS_CLUSTER_NODE_TIMEOUT ms (default 15000, Redis' own); the cluster drills use it.
#
#   scripts/redis-cluster.sh start   starts it (or finds it running); prints the URL of one node
#   scripts/redis-cluster.sh url     prints that URL of the running cluster
#   scripts/redis-cluster.sh stop    stops the nodes and deletes their data
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${MEMSTREAM_REDIS_CLUSTER_DIR:-${TMPDIR:-/tmp}/memstream-redis-cluster-$(pwd | cksum | cut -d' ' -f1)}"
REPLICAS="${REDIS_CLUSTER_REPLICAS:-0}"
NODES=(a b c)
[ "${REPLICAS}" = 1 ] && NODES=(a b c d e f)

# A free port whose cluster-bus port (port + 10000) is free too.
free_port() {
  node -e '
const net = require("node:net");
const free = (p) => new Promise((ok) => { const s = net.createServer(); s.once("error", () => ok(false)); s.listen(p, "127.0.0.1", () => s.close(() => ok(true))); });
(async () => { for (;;) { const p = 20000 + Math.floor(Math.random() * 30000); if ((await free(p)) && (await free(p + 10000))) { console.log(p); return; } } })();'
}
port_of() { cat "${DIR}/$1.port"; }
url() { echo "redis://127.0.0.1:$(port_of a)"; }
running() {
  for n in "${NODES[@]}"; do
    [ -f "${DIR}/$n.port" ] && redis-cli -p "$(port_of "$n")" ping >/dev/null 2>&1 || return 1
  done
  # A cluster started with the other replica setting is not this one.
  [ "$(redis-cli -p "$(port_of a)" cluster nodes 2>/dev/null | grep -c slave)" = "$((REPLICAS * 3))" ] || return 1
  redis-cli -p "$(port_of a)" cluster info 2>/dev/null | grep -q "cluster_state:ok"
}

start() {
  if running; then url; return; fi
  command -v redis-server >/dev/null || { echo "redis-cluster: redis-server not found (apt-get install redis-server)" >&2; exit 1; }
  stop
  mkdir -p "${DIR}"
  local addrs=()
  for n in "${NODES[@]}"; do
    free_port > "${DIR}/$n.port"
    mkdir -p "${DIR}/$n"
    redis-server --port "$(port_of "$n")" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-node-timeout "${REDIS_CLUSTER_NODE_TIMEOUT:-15000}" \
      --cluster-config-file "${DIR}/$n/nodes.conf" --dir "${DIR}/$n" --appendonly no --save "" \
      --daemonize yes --pidfile "${DIR}/$n.pid" --logfile "${DIR}/$n.log"
    addrs+=("127.0.0.1:$(port_of "$n")")
  done
  for n in "${NODES[@]}"; do
    for _ in $(seq 50); do redis-cli -p "$(port_of "$n")" ping >/dev/null 2>&1 && break; sleep 0.1; done
  done
  redis-cli --cluster create "${addrs[@]}" --cluster-replicas "${REPLICAS}" --cluster-yes >/dev/null
  for _ in $(seq 100); do running && break; sleep 0.1; done
  running || { echo "redis-cluster: cluster did not reach cluster_state:ok" >&2; exit 1; }
  url
}

stop() {
  for n in a b c d e f; do
    if [ -f "${DIR}/$n.port" ]; then redis-cli -p "$(port_of "$n")" shutdown nosave >/dev/null 2>&1 || true; fi
  done
  rm -rf "${DIR}"
}

case "${1:-}" in
  start) start ;;
  url) running || { echo "redis-cluster: not running (scripts/redis-cluster.sh start)" >&2; exit 1; }; url ;;
  stop) stop ;;
  *) echo "usage: scripts/redis-cluster.sh start|url|stop" >&2; exit 2 ;;
esac
