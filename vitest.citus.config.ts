import { defineConfig } from "vitest/config";
import base, { SUITE_WORKERS } from "./vitest.config";

/**
 * `npm run test:citus` (scripts/test-citus.sh): the tests of the data path, unchanged, against a
 * Citus coordinator with the tables distributed by agent_id. Same assertions as on one node, so
 * passing here means the same results; docs/adr/0011-scale-out.md lists what was rewritten.
 */
export const CITUS_TESTS = [
  // The distribution itself, and every statement naming its agent.
  "test/db/citus-compat.test.ts",
  // Writes (single, batch), get, patch, delete one, erase an agent.
  "test/api/memories.test.ts",
  // Every retrieve plan and relevance kind, sections, time filter, touch, context budgets.
  "test/memory/retrieve.test.ts",
  "test/memory/retrieve-fast.test.ts",
  "test/memory/retrieve-relevance.test.ts",
  "test/memory/retrieve-time-filter.test.ts",
  "test/memory/retrieve-exact-topk.test.ts",
  "test/memory/retrieve-phased.test.ts",
  "test/memory/ranking-agreement.test.ts",
  "test/memory/ranking-form-sample.test.ts",
  "test/memory/read-your-writes.test.ts",
  "test/api/sections.test.ts",
  "test/api/context.test.ts",
  "test/api/retrieval-settings.test.ts",
  // Retention, outcomes and lessons, documents, GitHub deliveries and imports, reflections.
  "test/jobs/retention.test.ts",
  "test/jobs/retention-lessons.test.ts",
  "test/api/forget.test.ts",
  "test/memory/lexicon-stats.test.ts",
  "test/api/outcomes.test.ts",
  "test/api/documents.test.ts",
  "test/api/github-deliveries.test.ts",
  "test/api/github-imports.test.ts",
  "test/api/reflect.test.ts",
  "test/jobs/reflection-trigger.test.ts",
  // Supersession: writes, the release on delete, retrieval, the LLM job.
  "test/api/supersedes.test.ts",
  "test/memory/supersession-retrieve.test.ts",
  "test/jobs/supersede.test.ts",
  // An embed job's chunk of several agents' memories stored in one transaction.
  "test/memory/store-embeddings.test.ts",
  // The retrieval log (written in the retrieve's transaction).
  "test/learning/retrieval-log.test.ts",
  // Outgoing events: the outbox triggers on the shards, subscriptions, deliveries and erasure.
  "test/outgoing/events.test.ts",
];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Isolated as before: these suites were measured and kept green that way.
    isolate: true,
    maxWorkers: SUITE_WORKERS,
    minWorkers: undefined,
    include: CITUS_TESTS,
    exclude: [],
    // A statement costs a hop more on the cluster, and three PostgreSQL instances share the cores.
    testTimeout: 60_000,
  },
});
