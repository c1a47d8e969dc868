import { execFileSync } from "node:child_process";
import postgres from "postgres";
import { TEST_DATABASE_URL, TEST_DISTRIBUTED, uniq } from "./env";

/**
 * A database of the test's own, for tests whose sweep re-enqueues every pending memory it can see
 * (`MEMSTREAM_SWEEP_AFTER_MS` near 0): the sweep is deployment-wide by design, so in the shared test
 * database it would take over other test files' memories mid-run and change their provider-call
 * counts. The system migrates it on start; `drop()` removes it.
 */
export async function ownDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = uniq(`memstream_test_${label}`)
    .replace(/[^a-z0-9_]/gi, "_")
    .toLowerCase();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  // Citus does not propagate CREATE DATABASE: the cluster script makes it on every node.
  if (TEST_DISTRIBUTED) {
    execFileSync("bash", ["scripts/citus-cluster.sh", "createdb", name], { stdio: "ignore" });
    return {
      url: url.toString(),
      drop: async () => {
        execFileSync("bash", ["scripts/citus-cluster.sh", "dropdb", name], { stdio: "ignore" });
      },
    };
  }
  const admin = new URL(TEST_DATABASE_URL);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.end();
  }
  return {
    url: url.toString(),
    async drop() {
      const s = postgres(admin.toString(), { max: 1, onnotice: () => {} });
      try {
        await s.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await s.end();
      }
    },
  };
}
