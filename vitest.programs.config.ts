import { defineConfig } from "vitest/config";
import base, { BROWSER, PYTHON } from "./vitest.config";

/**
 * The suites that drive a program outside npm: the stream browser in Debian's chromium
 * (`npm run test:browser`) and the Python client's pytest suite (`npm run test:python`); each
 * command installs its program first and says so. `.ci/run` runs both after `npm test`.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [BROWSER, PYTHON],
    exclude: [],
  },
});
