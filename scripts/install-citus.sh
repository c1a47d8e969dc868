#!/usr/bin/env bash
# Installs the Citus extension (13.0.5, the last line supporting PostgreSQL 15) into the local
# PostgreSQL when it is missing. Debian ships no Citus package for PostgreSQL 15, so we build the
# vendored source tarball (../shared/vendor, or CITUS_TARBALL). Idempotent: exits at once when the
# extension is installed; apt installs only the build packages that are missing.
# Citus runs as a server extension, like pgvector: nothing from it is linked into memstream.
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-$(pg_config --version 2>/dev/null | sed -E 's/[^0-9]*([0-9]+).*/\1/' || true)}"
if [ -z "${PG_MAJOR}" ] && [ -d /etc/postgresql ]; then PG_MAJOR="$(ls /etc/postgresql | sort -n | tail -1)"; fi
if [ -z "${PG_MAJOR}" ]; then
  echo "install-citus: no local PostgreSQL found." >&2
  exit 1
fi
LIBDIR="/usr/lib/postgresql/${PG_MAJOR}/lib"
SHAREDIR="/usr/share/postgresql/${PG_MAJOR}/extension"
if [ -f "${SHAREDIR}/citus.control" ] && [ -f "${LIBDIR}/citus.so" ]; then
  echo "install-citus: Citus already installed for PostgreSQL ${PG_MAJOR}"
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-citus: Citus is missing for PostgreSQL ${PG_MAJOR} and this script needs root with apt-get to build it." >&2
  echo "  Install Citus yourself (https://docs.citusdata.com) or run 'docker compose --profile citus up -d'." >&2
  exit 1
fi

HERE="$(cd "$(dirname "$0")/.." && pwd)"
TARBALL="${CITUS_TARBALL:-}"
if [ -z "${TARBALL}" ]; then
  for candidate in "${HERE}/../shared/vendor/citus-13.0.5.tar.gz" "${HERE}/../../shared/vendor/citus-13.0.5.tar.gz"; do
    if [ -f "${candidate}" ]; then TARBALL="${candidate}"; break; fi
  done
fi
if [ -z "${TARBALL}" ] || [ ! -f "${TARBALL}" ]; then
  echo "install-citus: Citus source tarball not found; set CITUS_TARBALL to citus-13.0.5.tar.gz." >&2
  exit 1
fi

# Only the build packages that are missing (apt-get update only when something is).
export DEBIAN_FRONTEND=noninteractive
missing=()
for pkg in "postgresql-server-dev-${PG_MAJOR}" liblz4-dev libzstd-dev libkrb5-dev flex make gcc; do
  dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q "install ok installed" || missing+=("${pkg}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-citus: apt-get install ${missing[*]}"
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "install-citus: building Citus from ${TARBALL} for PostgreSQL ${PG_MAJOR} (about 10-15 minutes on 2 cores)"
WORK="$(mktemp -d)"
trap 'rm -rf "${WORK}"' EXIT
tar -xzf "${TARBALL}" -C "${WORK}"
cd "${WORK}"/citus*/
JOBS="${CITUS_BUILD_JOBS:-2}"
nice -n 10 ./configure --without-libcurl PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config" >/dev/null
# with_llvm=no: no LLVM bitcode for PostgreSQL's JIT to inline (the JIT still runs Citus's
# queries); it halves the build.
nice -n 10 make -s -j"${JOBS}" with_llvm=no >/dev/null
make -s install with_llvm=no >/dev/null
echo "install-citus: installed $(grep default_version "${SHAREDIR}/citus.control")"
