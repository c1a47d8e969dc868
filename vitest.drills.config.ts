import { defineConfig } from "vitest/config";
import base, { DRILLS, SUITE_WORKERS } from "./vitest.config";

/**
 * The second suite, `npm run test:drills`: fault drills that kill workers, cut the database or
 * wait out deadlines, tens of seconds each. `.ci/run` runs it after `npm test`.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    isolate: true,
    include: [DRILLS],
    exclude: [],
    maxWorkers: SUITE_WORKERS,
    minWorkers: undefined,
  },
});
