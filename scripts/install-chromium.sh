#!/usr/bin/env bash
# Installs Debian's chromium for the stream browser test (test/ui), which drives it with
# playwright-core. Idempotent: exits at once when /usr/bin/chromium exists. Without root and
# apt-get it says what to do; the browser test then fails loudly (it never skips).
set -euo pipefail

CHROMIUM="${MEMSTREAM_CHROMIUM:-/usr/bin/chromium}"
if [ -x "${CHROMIUM}" ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: ${CHROMIUM} is missing and this script needs root with apt-get to install it." >&2
  echo "  Install Debian's chromium package (apt-get install chromium) for the browser test." >&2
  exit 0
fi
echo "install-chromium: installing Debian's chromium (for the /ui browser test)"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq chromium >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null; }
