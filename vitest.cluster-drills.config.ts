import { defineConfig } from "vitest/config";
import base, { CLUSTER_DRILLS } from "./vitest.config";

/**
 * `npm run test:cluster-drills` (scripts/test-cluster-drills.sh): the cluster under change — a
 * worker added and shards moved while serving, a worker and the coordinator lost and back, a Redis
 * Cluster primary failing over. One file at a time: each changes the one cluster they share.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    isolate: true,
    include: [CLUSTER_DRILLS],
    exclude: [],
    fileParallelism: false,
    maxWorkers: 1,
    minWorkers: undefined,
    // A rebalance moves shard after shard (seconds each on the shared cores).
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
