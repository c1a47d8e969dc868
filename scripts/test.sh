#!/usr/bin/env bash
# `npm test`: checks the real services the tests need (and pgvector in PostgreSQL), runs vitest.
# It installs nothing; `npm run test:browser` and `npm run test:python` install their programs.
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

# pgvector must be in the server already: `npm test` installs nothing system-wide (README: Test it).
node -e '
const postgres = require("postgres");
const sql = postgres(process.argv[1], { max: 1, onnotice: () => {}, connect_timeout: 5 });
sql`SELECT 1 FROM pg_available_extensions WHERE name = ${"vector"}`
  .then((rows) => {
    if (rows.length === 0) {
      console.error("memstream test: pgvector is not installed in the PostgreSQL at " + new URL(process.argv[1]).host +
        ". Install it once: `npm run setup:pgvector` (Debian, root: builds Debian'"'"'s source package) or your platform'"'"'s package.");
      process.exitCode = 1;
    }
  })
  .catch(() => {})
  .finally(() => sql.end());
' "$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/postgres"; console.log(u.href)' "$PGHOST_URL")"

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
