import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/** Fault drills (killed workers, a database cut away, shutdown deadlines): `npm run test:drills`. */
export const DRILLS = "test/drills/**/*.test.ts";
/** The cluster under change (Citus workers added and lost, Redis failover): `npm run test:cluster-drills`. */
export const CLUSTER_DRILLS = "test/cluster-drills/**/*.test.ts";
/**
 * Suites that need a program outside npm (Debian's chromium, Python's pytest): their own
 * commands, which say what they install (`npm run test:browser`, `npm run test:python`).
 */
export const BROWSER = "test/ui/**/*.test.ts";
export const PYTHON = "test/clients/**/*.test.ts";
/**
 * Workers of the drills and the cluster suites (cores - 1, two at least, and vitest's minimum), as
 * they were measured and kept green: drills time deadlines, and the clusters share the cores with
 * three servers.
 */
export const SUITE_WORKERS = Math.max(2, availableParallelism() - 1);

const WORKERS = Math.max(3, availableParallelism() + 1);

export default defineConfig({
  // Tests import @memstream/client and the integrations from their TypeScript source, as tsc
  // (customConditions) and tsx (--conditions=memstream-source) resolve them through their package.json.
  resolve: {
    alias: {
      "@memstream/client": fileURLToPath(new URL("client/src/index.ts", import.meta.url)),
      "@memstream/ai-sdk": fileURLToPath(new URL("integrations/ai-sdk/src/index.ts", import.meta.url)),
      "@memstream/langgraph": fileURLToPath(new URL("integrations/langgraph/src/index.ts", import.meta.url)),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // `npm test` is the inner loop (under 3 minutes); the drills wait tens of seconds each.
    exclude: [...configDefaults.exclude, DRILLS, CLUSTER_DRILLS, BROWSER, PYTHON],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files own their agents and queue prefixes, so they can share one database.
    pool: "forks",
    // One module graph per worker, not per file: re-importing the app (zod schemas, BullMQ, PGlite,
    // the offline model's runtime) for each of ~110 files was most of the run (collect 228 s of a
    // 386 s run on a fresh clone; 28 s of 230 s without). Files own their agents, queue prefixes,
    // systems and servers, and nothing here mocks modules or sets process.env, so they share
    // modules safely. The drills and the cluster suites keep isolation (their own configs).
    isolate: false,
    // Much of a file's time is spent waiting on Postgres, Redis, child processes and worker
    // threads, all outside the vitest workers: one more file than cores. Measured one after the
    // other in one warm clone on 2 cores (load average 4-5 from outside): 2 workers 132 s, 3
    // workers 127 s, a gain within this machine's noise; fresh clones (cold, load 3-5): main with 2
    // workers 148 s, this setting 118 s. All files passed each time.
    maxWorkers: WORKERS,
    // As many from the start to the end: vitest's default minimum (cores - 1) lets tinypool retire a
    // worker the moment it idles, and a file handed to it meanwhile failed the run ("Terminating
    // worker thread", no summary) in 2 of 3 runs with 3 workers.
    minWorkers: WORKERS,
  },
});
