import postgres from "postgres";
import { openDatabase } from "../src/db/client";
import { TEST_DATABASE_URL, TEST_DISTRIBUTED } from "./support/env";

/**
 * Creates a fresh test database and applies the migrations once per run. A database that
 * cannot be reached fails the run loudly: tests never skip their real services.
 */
export default async function setup() {
  // On Citus the database must exist on every node: scripts/test-citus.sh made it fresh.
  if (!TEST_DISTRIBUTED) await freshDatabase();
  const db = await openDatabase({ url: TEST_DATABASE_URL, dataDir: "", distributed: TEST_DISTRIBUTED });
  await db.migrate();
  await db.close();
}

async function freshDatabase() {
  const url = new URL(TEST_DATABASE_URL);
  const name = url.pathname.slice(1);
  const admin = new URL(TEST_DATABASE_URL);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } catch (err) {
    throw new Error(
      `Cannot prepare the test database at ${admin.host}: ${(err as Error).message}. ` +
        "Start PostgreSQL with pgvector (e.g. `docker compose up -d postgres`) or set TEST_DATABASE_URL.",
    );
  } finally {
    await sql.end();
  }
}
