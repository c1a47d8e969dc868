import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";

// Every piece of background work is a job of the catalog (src/jobs/catalog.ts). A timer loop
// elsewhere in src/ would be work the queues, retries, the sweep and MEMSTREAM_WORKERS=off do
// not know about.
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );

// Measuring is not work: the event-loop delay sampler of /metrics (src/metrics/index.ts) is a timer.
// Nor is yielding: the embedded database's scheduler gives its thread's event loop one turn between
// exchanges (src/db/pglite-exchanges.ts).
const TIMERS_ALLOWED = ["jobs/", "metrics/index.ts", "db/pglite-exchanges.ts"];

it("no setImmediate/setInterval in src/ outside src/jobs/ (and the metrics sampler)", () => {
  const offenders = files("src")
    .filter((f) => !TIMERS_ALLOWED.some((allowed) => relative("src", f).startsWith(allowed)))
    .flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) =>
          /\bset(Immediate|Interval)\s*\(/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
  expect(offenders).toEqual([]);
});

it("the check itself finds a loop (src/jobs/sweep.ts has one)", () => {
  expect(readFileSync("src/jobs/sweep.ts", "utf8")).toMatch(/\bsetInterval\s*\(/);
});

it("no enrichment column named as a string in raw SQL outside the schema (src/memory/enrichment/fields.ts)", () => {
  const column = /\b(importance|embedding)_(status|error|claimed_by|claimed_until)\b/;
  const offenders = files("src")
    .filter((f) => !relative("src", f).startsWith("db/schema/"))
    .flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) => (column.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
  expect(offenders).toEqual([]);
});
