#!/usr/bin/env bash
# `npm test`: checks the real services the tests need, sets up pgvector where it can, runs vitest.
set -euo pipefail
cd "$(dirname "$0")/.."

PGHOST_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/memstream_test}"
REDIS="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"

node -e '
const net = require("node:net");
const [pg, redis] = process.argv.slice(1).map((u) => new URL(u));
const probe = (name, host, port) => new Promise((ok) => {
  const s = net.connect({ host, port: Number(port), timeout: 2000 });
  s.on("connect", () => { s.destroy(); ok(true); });
  s.on("error", () => ok(false)); s.on("timeout", () => { s.destroy(); ok(false); });
}).then((up) => { if (!up) { console.error(`memstream test: ${name} is not reachable at ${host}:${port}. Start it (e.g. \`docker compose up -d\`) or set TEST_${name.toUpperCase()}_URL.`); process.exitCode = 1; } });
Promise.all([probe("database", pg.hostname, pg.port || 5432), probe("redis", redis.hostname, redis.port || 6379)]);
' "$PGHOST_URL" "$REDIS"

# pgvector: build it into a local PostgreSQL when missing (a no-op when it is installed or remote).
host="$(node -e 'console.log(new URL(process.argv[1]).hostname)' "$PGHOST_URL")"
if [ "$host" = "127.0.0.1" ] || [ "$host" = "localhost" ]; then
  if [ -d /etc/postgresql ] || command -v pg_config >/dev/null 2>&1; then
    bash scripts/install-pgvector.sh
  fi
fi

# Chromium for the stream browser test (test/ui): Debian's package, installed when missing and root.
bash scripts/install-chromium.sh
# pytest for the Python client's tests (test/clients/python.test.ts): Debian's package, likewise.
bash scripts/install-pytest.sh

report="$(mktemp)"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# One plain closing line ("N passed, N failed") that any CI can read.
node -e '
const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
' "$report" 2>/dev/null || true
rm -f "$report"
exit "$status"
