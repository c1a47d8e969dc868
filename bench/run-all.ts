/**
 * `npm run bench`: retrieval at scale (floor, exact, exact/floor, fast, recall@10 per dataset), the
 * default against the paper preset by stream size with 16 clients, PGlite and a POST during an
 * embedding backlog of 500 (bench/default-speed.ts; BENCH_FULL=1 adds 1M memories, BENCH_BACKLOG
 * the target's 2,000), batch writes over
 * HTTP, the load benchmark, then the enrichment pipeline (each also runs alone). The
 * writes run a quick configuration unless BENCH_WRITES_* says otherwise: 4,000 memories per
 * figure, 512- and 1536-d, batches of 100 and 1,000, 1 and 4 clients, median of 3 (~2 minutes).
 * The targets, each with its figure, are printed again at the end.
 */
import { spawnSync } from "node:child_process";
import { lastTargets, printTargets } from "./lib/targets";

const quickWrites = { BENCH_WRITES_MEMORIES: "4000", BENCH_WRITES_REPEAT: "3" };
// The POST-during-a-backlog part at a size that finishes in a few minutes (the target names 2,000).
const quickDefault = { BENCH_BACKLOG: "500" };
const scripts = [
  "bench/retrieval.ts",
  "bench/default-speed.ts",
  "bench/writes.ts",
  "bench/load.ts",
  "bench/enrichment.ts",
];
for (const script of scripts) {
  const r = spawnSync("npx", ["tsx", script, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...quickWrites, ...quickDefault, ...process.env },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// The targets again at the end, where they are not scrolled away.
const targets = lastTargets();
if (targets.length > 0) printTargets(targets);
