// Patches postgres (postgres-js) 3.4.x: `nextWrite` runs from a setImmediate and dereferences a
// socket that `closed()` has already set to null, throwing an uncatchable TypeError that kills
// the process whenever a connection drops at the wrong moment (upstream issues #1066, #1154,
// #1208; fix proposed in PRs #1168/#1176/#1209, unreleased). We reproduced it with a reserved
// connection behind a TCP proxy that drops (test/db/closed-socket.test.ts). The patch settles
// the write instead: the pending query is rejected with CONNECTION_CLOSED (a 503 for our API),
// and the teardown paths forget the buffered write so a pooled connection is not poisoned.
// Idempotent; a version whose code no longer has the pattern (a fixed upstream) is left alone.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const MARK = "/* memstream: closed-socket guard */";
const dirs = ["src", "cjs/src", "cf/src"];
const at = (f) => new URL(`../../node_modules/postgres/${f}`, import.meta.url);

const NEXT_WRITE = "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)";
const GUARDED = `  function nextWrite(fn) {
    ${MARK}
    if (!socket) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options, socket))
      return false
    }
    const x = socket.write(chunk, fn)`;
const TEARDOWN = "    clearImmediate(nextWriteTimer)\n";
const TEARDOWN_FIXED = "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n";

// Releasing a reserved connection whose socket closed meanwhile put it back among the open
// ones, where every later query failed on it; a closed one stays closed, so the pool reconnects it.
const RELEASE = "      c.reserved = null\n      onopen(c)\n";
const RELEASE_FIXED = `      c.reserved = null\n      ${MARK}\n      c.queue === closed || onopen(c)\n`;

/** Applies `edits` ([from, to] pairs, all required) to one file, once. */
function patch(file, edits) {
  if (!existsSync(file)) return 0;
  const src = readFileSync(file, "utf8");
  if (src.includes(MARK)) return 0;
  if (!edits.every(([from]) => src.includes(from))) {
    console.error(`patch-postgres: ${file.pathname} differs from what the patch expects; leaving it alone`);
    return 0;
  }
  writeFileSync(file, edits.reduce((s, [from, to]) => s.replaceAll(from, to), src));
  return 1;
}

let patched = 0;
for (const dir of dirs) {
  patched += patch(at(`${dir}/connection.js`), [
    [NEXT_WRITE, GUARDED],
    [TEARDOWN, TEARDOWN_FIXED],
  ]);
  patched += patch(at(`${dir}/index.js`), [[RELEASE, RELEASE_FIXED]]);
}
if (patched > 0) console.error(`patch-postgres: patched ${patched} file(s) of postgres against writes to a closed socket`);
