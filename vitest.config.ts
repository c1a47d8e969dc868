import { defineConfig } from "vitest/config";

// Minimal config: pure unit tests under test/. Main may replace it with one that also sets up services.
export default defineConfig({
  test: { include: ["test/**/*.test.ts"] },
});
