#!/usr/bin/env bash
# Installs the pgvector extension into the local PostgreSQL when it is missing.
# Debian 12 ships no pgvector package, so we build Debian trixie's source package (0.8.0)
# against postgresql-server-dev-<major>. Idempotent: exits at once when the extension exists.
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-$(pg_config --version 2>/dev/null | sed -E 's/[^0-9]*([0-9]+).*/\1/' || true)}"
if [ -z "${PG_MAJOR}" ] && [ -d /etc/postgresql ]; then PG_MAJOR="$(ls /etc/postgresql | sort -n | tail -1)"; fi
if [ -z "${PG_MAJOR}" ]; then
  echo "install-pgvector: no local PostgreSQL found. Point DATABASE_URL at a PostgreSQL with pgvector (e.g. 'docker compose up -d')." >&2
  exit 1
fi
SHAREDIR="/usr/share/postgresql/${PG_MAJOR}/extension"
if [ -f "${SHAREDIR}/vector.control" ]; then
  echo "install-pgvector: pgvector already installed for PostgreSQL ${PG_MAJOR}"
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-pgvector: pgvector is missing for PostgreSQL ${PG_MAJOR} and this script needs root with apt-get to build it." >&2
  echo "  Install pgvector yourself (https://github.com/pgvector/pgvector#installation) or run 'docker compose up -d'." >&2
  exit 1
fi

echo "install-pgvector: building pgvector for PostgreSQL ${PG_MAJOR} from Debian's source package"
export DEBIAN_FRONTEND=noninteractive
SRC_LIST=/etc/apt/sources.list.d/memstream-trixie-src.list
if [ ! -f "${SRC_LIST}" ]; then
  echo "deb-src http://deb.debian.org/debian trixie main" > "${SRC_LIST}"
fi
apt-get update -qq >/dev/null
apt-get install -y -qq "postgresql-server-dev-${PG_MAJOR}" dpkg-dev make gcc >/dev/null
WORK="$(mktemp -d)"
trap 'rm -rf "${WORK}"' EXIT
cd "${WORK}"
apt-get source -qq pgvector >/dev/null 2>&1 || apt-get source pgvector
cd pgvector-*/
make -s PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" >/dev/null
make -s install PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" >/dev/null
echo "install-pgvector: installed $(grep default_version "${SHAREDIR}/vector.control")"
