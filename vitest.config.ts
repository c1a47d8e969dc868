import { defineConfig } from "vitest/config";

// Minimal config for the providers branch; main may replace it.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
