#!/usr/bin/env bash
# A local Citus cluster on demand: a coordinator and two workers (more with add-worker), PostgreSQL
# instances of the machine's binaries on free ports, each with Citus, pgvector and btree_gin in
# database `memstream`, trust auth on 127.0.0.1 only. Used by `npm run test:citus`, the cluster
# drills and bench/citus.ts; the compose `citus` profile is the same topology in containers
# (docs/adr/0011-scale-out.md).
#
#   scripts/citus-cluster.sh start    starts it (or finds it running); prints the coordinator URL
#   scripts/citus-cluster.sh reset    a fresh, empty database `memstream` on the running cluster
#   scripts/citus-cluster.sh createdb NAME / dropdb NAME   another database on every node (tests)
#   scripts/citus-cluster.sh url      prints the coordinator URL of the running cluster
#   scripts/citus-cluster.sh add-worker [DB...]   one more worker (worker3, ...), with the database
#                                     on it and registered in each DB's node list (default: memstream);
#                                     prints its name. Move shards to it with citus_rebalance_start().
#   scripts/citus-cluster.sh stop-node NODE / start-node NODE   one instance down (immediate
#                                     shutdown, as a crash) or up again, data kept (drills)
#   scripts/citus-cluster.sh port NODE   the port of one instance (coordinator, worker1, ...)
#   scripts/citus-cluster.sh stop     stops every instance and deletes their data
#
# State lives in MEMSTREAM_CITUS_DIR (default: a directory under /tmp keyed by the project path, so
# two checkouts get two clusters). Citus itself is built by scripts/install-citus.sh when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PROJECT="$(pwd)"

PG_MAJOR="${PG_MAJOR:-$(pg_config --version 2>/dev/null | sed -E 's/[^0-9]*([0-9]+).*/\1/')}"
BIN="/usr/lib/postgresql/${PG_MAJOR}/bin"
DIR="${MEMSTREAM_CITUS_DIR:-${TMPDIR:-/tmp}/memstream-citus-$(printf '%s' "${PROJECT}" | cksum | cut -d' ' -f1)}"
DB=memstream
# The instances: the coordinator and the workers made so far (two at start, more by add-worker).
nodes() {
  echo coordinator
  if [ -d "${DIR}" ]; then
    (cd "${DIR}" && ls -1 worker*.port 2>/dev/null | sed 's/\.port$//' | sort -V)
  fi
}

# PostgreSQL refuses to run as root: as root, the instances run as the `postgres` user.
as_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# A free TCP port on 127.0.0.1 (the kernel picks it; the instance binds it a moment later).
free_port() {
  node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
port_of() { cat "${DIR}/$1.port"; }
psql_on() { # node, then psql arguments
  PGOPTIONS="-c client_min_messages=warning" \
  "${BIN}/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(port_of "$1")" -U postgres "${@:2}"
}
url() { echo "postgres://postgres@127.0.0.1:$(port_of coordinator)/${DB}"; }
running() {
  [ -f "${DIR}/coordinator.port" ] || return 1
  for n in $(nodes); do
    [ -f "${DIR}/$n.port" ] && as_pg "${BIN}/pg_ctl" -D "${DIR}/$n" status >/dev/null 2>&1 || return 1
  done
}

start() {
  if running; then url; return; fi
  bash scripts/install-citus.sh >&2
  stop_instances
  rm -rf "${DIR}"
  mkdir -p "${DIR}"
  [ "$(id -u)" = "0" ] && chown postgres: "${DIR}"
  for n in coordinator worker1 worker2; do init_node "$n"; done
  create_db
  url
}

# One instance: its data directory, settings and port, started.
init_node() {
  local n="$1"
  free_port > "${DIR}/$n.port"
  as_pg "${BIN}/initdb" -D "${DIR}/$n" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  cat >> "${DIR}/$n/postgresql.conf" <<CONF
# memstream local Citus cluster (scripts/citus-cluster.sh)
port = $(port_of "$n")
listen_addresses = '127.0.0.1'
unix_socket_directories = '${DIR}'
shared_preload_libraries = 'citus'
max_connections = 200
shared_buffers = 128MB
# A throwaway test cluster: durability is not what it is for.
fsync = off
synchronous_commit = off
full_page_writes = off
max_prepared_transactions = 100
# Online shard moves (citus_move_shard_placement, citus_rebalance_start) copy by logical replication.
wal_level = logical
max_replication_slots = 20
max_wal_senders = 20
CONF
  printf 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n' > "${DIR}/$n/pg_hba.conf"
  start_node "$n"
}
start_node() { as_pg "${BIN}/pg_ctl" -D "${DIR}/$1" -l "${DIR}/$1.log" -w -t 60 start >/dev/null; }
stop_node() { as_pg "${BIN}/pg_ctl" -D "${DIR}/$1" -m immediate -w stop >/dev/null; }
node_exists() { [ -f "${DIR}/$1.port" ] || { echo "citus-cluster: no node $1 (nodes: $(nodes | xargs))" >&2; exit 1; }; }

# The next worker: its instance, each database on it, and registered in each database's node list
# (a new node holds no shards until a rebalance moves some; reference tables are copied then).
add_worker() {
  local last n db
  last="$(nodes | grep -c '^worker')"
  n="worker$((last + 1))"
  init_node "$n"
  for db in "${@:-${DB}}"; do
    psql_on "$n" -d postgres -c "CREATE DATABASE \"${db}\""
    psql_on "$n" -d "${db}" -f scripts/citus-node.sql
    psql_on coordinator -d "${db}" -c "SELECT citus_add_node('127.0.0.1', $(port_of "$n"))" >/dev/null
  done
  echo "$n"
}

# The database on every node, its extensions, and the workers registered (the node list is kept
# per database, in the coordinator's pg_dist_node).
# Citus does not propagate CREATE DATABASE, so each node gets its own.
create_db() {
  local db="${1:-${DB}}"
  for n in $(nodes); do
    psql_on "$n" -d postgres -c "DROP DATABASE IF EXISTS \"${db}\" WITH (FORCE)" -c "CREATE DATABASE \"${db}\""
    psql_on "$n" -d "${db}" -f scripts/citus-node.sql
  done
  psql_on coordinator -d "${db}" \
    -c "SELECT citus_set_coordinator_host('127.0.0.1', $(port_of coordinator))" >/dev/null
  for n in $(nodes | grep '^worker'); do
    psql_on coordinator -d "${db}" -c "SELECT citus_add_node('127.0.0.1', $(port_of "$n"))" >/dev/null
  done
}

stop_instances() {
  for n in $(nodes); do
    if [ -d "${DIR}/$n" ]; then as_pg "${BIN}/pg_ctl" -D "${DIR}/$n" -m immediate -w stop >/dev/null 2>&1 || true; fi
  done
}

case "${1:-}" in
  start) start ;;
  reset) running || { echo "citus-cluster: not running (scripts/citus-cluster.sh start)" >&2; exit 1; }; create_db; url ;;
  createdb) running || { echo "citus-cluster: not running" >&2; exit 1; }; create_db "${2:?database name}" ;;
  dropdb)
    for n in $(nodes); do psql_on "$n" -d postgres -c "DROP DATABASE IF EXISTS \"${2:?database name}\" WITH (FORCE)"; done ;;
  url) running || { echo "citus-cluster: not running (scripts/citus-cluster.sh start)" >&2; exit 1; }; url ;;
  add-worker) running || { echo "citus-cluster: not running" >&2; exit 1; }; shift; add_worker "$@" ;;
  stop-node) node_exists "${2:?node}"; stop_node "$2" ;;
  start-node) node_exists "${2:?node}"; start_node "$2" ;;
  port) node_exists "${2:?node}"; port_of "$2" ;;
  stop) stop_instances; rm -rf "${DIR}" ;;
  *) echo "usage: scripts/citus-cluster.sh start|reset|createdb NAME|dropdb NAME|url|add-worker [DB...]|stop-node NODE|start-node NODE|port NODE|stop" >&2; exit 2 ;;
esac
