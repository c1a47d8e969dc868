import { defineConfig } from "vitest/config";
import base, { SUITE_WORKERS } from "./vitest.config";

/**
 * `npm run test:redis-cluster` (scripts/test-redis-cluster.sh): the pipeline's no-loss drills with
 * the queues on a three-node Redis Cluster (REDIS_CLUSTER=true, hash-tagged prefix): a worker killed
 * mid-batch, and one stopped by SIGTERM mid-batch, lose nothing.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Isolated as before: these suites were measured and kept green that way.
    isolate: true,
    maxWorkers: SUITE_WORKERS,
    minWorkers: undefined,
    include: ["test/drills/recovery.test.ts", "test/jobs/pipeline.test.ts"],
    exclude: [],
    // The drills that cut Redis away or flush it address one node; they stay single-Redis drills.
    testNamePattern: /mid-batch|pipeline/,
    // Every queue command may take a MOVED redirect and the cluster's three servers share the
    // cores: the 500-memory pipeline test took 31-35 s here under load, past the default 30 s.
    testTimeout: 90_000,
  },
});
