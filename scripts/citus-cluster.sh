#!/usr/bin/env bash
# A local Citus cluster on demand: a coordinator and two workers, three PostgreSQL instances of the
# machine's binaries on free ports, each with Citus, pgvector and btree_gin in database `memstream`,
# trust auth on 127.0.0.1 only. Used by `npm run test:citus` and bench/citus.ts; the compose `citus`
# profile is the same topology in containers (docs/adr/0011-scale-out.md).
#
#   scripts/citus-cluster.sh start    starts it (or finds it running); prints the coordinator URL
#   scripts/citus-cluster.sh reset    a fresh, empty database `memstream` on the running cluster
#   scripts/citus-cluster.sh createdb NAME / dropdb NAME   another database on every node (tests)
#   scripts/citus-cluster.sh url      prints the coordinator URL of the running cluster
#   scripts/citus-cluster.sh stop     stops the three instances and deletes their data
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
NODES=(coordinator worker1 worker2)

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
  for n in "${NODES[@]}"; do
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
  for n in "${NODES[@]}"; do
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
CONF
    printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' > "${DIR}/$n/pg_hba.conf"
    as_pg "${BIN}/pg_ctl" -D "${DIR}/$n" -l "${DIR}/$n.log" -w -t 60 start >/dev/null
  done
  create_db
  url
}

# The database on every node, its extensions, and the workers registered (the node list is kept
# per database, in the coordinator's pg_dist_node).
# Citus does not propagate CREATE DATABASE, so each node gets its own.
create_db() {
  local db="${1:-${DB}}"
  for n in "${NODES[@]}"; do
    psql_on "$n" -d postgres -c "DROP DATABASE IF EXISTS \"${db}\" WITH (FORCE)" -c "CREATE DATABASE \"${db}\""
    psql_on "$n" -d "${db}" -f scripts/citus-node.sql
  done
  psql_on coordinator -d "${db}" \
    -c "SELECT citus_set_coordinator_host('127.0.0.1', $(port_of coordinator))" \
    -c "SELECT citus_add_node('127.0.0.1', $(port_of worker1))" \
    -c "SELECT citus_add_node('127.0.0.1', $(port_of worker2))" >/dev/null
}

stop_instances() {
  for n in "${NODES[@]}"; do
    if [ -d "${DIR}/$n" ]; then as_pg "${BIN}/pg_ctl" -D "${DIR}/$n" -m immediate -w stop >/dev/null 2>&1 || true; fi
  done
}

case "${1:-}" in
  start) start ;;
  reset) running || { echo "citus-cluster: not running (scripts/citus-cluster.sh start)" >&2; exit 1; }; create_db; url ;;
  createdb) running || { echo "citus-cluster: not running" >&2; exit 1; }; create_db "${2:?database name}" ;;
  dropdb)
    for n in coordinator worker1 worker2; do psql_on "$n" -d postgres -c "DROP DATABASE IF EXISTS \"${2:?database name}\" WITH (FORCE)"; done ;;
  url) running || { echo "citus-cluster: not running (scripts/citus-cluster.sh start)" >&2; exit 1; }; url ;;
  stop) stop_instances; rm -rf "${DIR}" ;;
  *) echo "usage: scripts/citus-cluster.sh start|reset|createdb NAME|dropdb NAME|url|stop" >&2; exit 2 ;;
esac
