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
    // Vitest's default of cores - 1 runs the files one by one on 2 cores, while most of their time
    // is spent waiting on Postgres, Redis and child processes: two at a time at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
