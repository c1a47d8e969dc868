import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Tests import @memstream/client from its TypeScript source, as tsc (customConditions) and tsx
  // (--conditions=memstream-source) resolve it through client/package.json.
  resolve: { alias: { "@memstream/client": fileURLToPath(new URL("client/src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files own their agents and queue prefixes, so they can share one database.
    pool: "forks",
  },
});
