/** `npm run bench`: the retrieval-at-scale benchmark, then the load benchmark (each also runs alone). */
import { spawnSync } from "node:child_process";

for (const script of ["bench/retrieval.ts", "bench/load.ts"]) {
  const r = spawnSync("npx", ["tsx", script, ...process.argv.slice(2)], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
