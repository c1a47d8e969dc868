/** `npm run bench`: retrieval at scale, the load benchmark, then the enrichment pipeline (each also runs alone). */
import { spawnSync } from "node:child_process";

for (const script of ["bench/retrieval.ts", "bench/load.ts", "bench/enrichment.ts"]) {
  const r = spawnSync("npx", ["tsx", script, ...process.argv.slice(2)], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
