#!/usr/bin/env bash
# Installs Debian's python3-pytest and python3-mypy for the Python client's tests and type check
# (clients/python, run by test/clients/python.test.ts; pyright comes from node_modules). Idempotent:
# exits at once when python3 can import both. Without root and apt-get it says what to do; the
# Python tests then fail loudly (they never skip).
set -euo pipefail

# Debian's interpreter, not whichever python3 comes first on PATH (pyenv and the like have their
# own site-packages): the tests run MEMSTREAM_PYTHON, default /usr/bin/python3.
PYTHON="${MEMSTREAM_PYTHON:-/usr/bin/python3}"
if [ -x "${PYTHON}" ] && "${PYTHON}" -c 'import pytest, mypy' >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-python-tools: ${PYTHON} with pytest and mypy is missing and this script needs root with apt-get to install them." >&2
  echo "  Install Debian's python3-pytest and python3-mypy (apt-get install python3-pytest python3-mypy) for the Python client's tests." >&2
  exit 0
fi
echo "install-python-tools: installing Debian's python3-pytest and python3-mypy (for the Python client's tests and type check)"
export DEBIAN_FRONTEND=noninteractive
# Another apt-get may hold the lock (a shared machine): wait for it rather than fail.
apt_get() { apt-get -o DPkg::Lock::Timeout=300 "$@"; }
PACKAGES=(python3-pytest python3-mypy)
apt_get install -y -qq "${PACKAGES[@]}" >/dev/null 2>&1 || { apt_get update -qq >/dev/null && apt_get install -y -qq "${PACKAGES[@]}" >/dev/null; }
