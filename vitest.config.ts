import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/** Fault drills (killed workers, a database cut away, shutdown deadlines): `npm run test:drills`. */
export const DRILLS = "test/drills/**/*.test.ts";

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
    exclude: [...configDefaults.exclude, DRILLS],
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
    // Vitest's default of cores - 1 runs the files one by one on 2 cores, while most of their time
    // is spent waiting on Postgres, Redis and child processes: two at a time at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
