/** Where the tests find their real services (override with env vars). */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/memstream_test";
/**
 * `citus` when the suite runs against a Citus coordinator (`npm run test:citus`): the database is
 * fresh per run (scripts/citus-cluster.sh reset) and migrating distributes it.
 */
export const TEST_DISTRIBUTED = process.env.TEST_DISTRIBUTED === "citus" ? "citus" : null;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** TEST_REDIS_URL is a node of a Redis Cluster (`npm run test:redis-cluster`). */
export const TEST_REDIS_CLUSTER = process.env.TEST_REDIS_CLUSTER === "1";

/** A unique suffix per test file run, so files never share agents or queues. */
export const uniq = (prefix: string) => `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/** Fuzz tests: `FUZZ_SEED` replays a run (printed on failure); `FUZZ_RUNS` cases per operation. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/** Time a whole-system setup may take on a loaded CI machine (these tests seed data and a proxy too). */
export const SETUP_MS = 180_000;
