import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { projectPath } from "../lib/paths";
import { type Db, queryRows } from "./client";

const journal = JSON.parse(readFileSync(projectPath("migrations", "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};

/** Readiness: the database answers and every migration in the repo has been applied. */
export async function checkReady(db: Db): Promise<{ ok: boolean; checks: Record<string, string> }> {
  try {
    const [row] = await queryRows<{ n: number | string }>(
      db,
      sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
    );
    const applied = Number(row?.n ?? 0);
    const expected = journal.entries.length;
    const ok = applied >= expected;
    return { ok, checks: { database: "ok", migrations: ok ? "ok" : `${applied}/${expected} applied` } };
  } catch (err) {
    return { ok: false, checks: { database: `unreachable: ${(err as Error).message}` } };
  }
}
