import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { citedAndTotal, deletable, doomed } from "./doomed-sql";
import type { RetentionPolicy } from "./policy";
import { FORGET_SAMPLE } from "./report";

type Row = { kind: string | null; n: number; sample: string[] };

/**
 * What a run of `policy` started now would delete, counted in one statement without deleting:
 * the total and per kind, and the oldest FORGET_SAMPLE ids. Only counts and a bounded sample
 * leave Postgres, whatever the stream's size.
 */
export async function previewForget(
  db: Pick<Db, "execute">,
  agentId: string,
  policy: RetentionPolicy,
  now: Date,
): Promise<{ count: number; byKind: Record<string, number>; sample: string[] }> {
  const rows = await queryRows<Row>(
    db,
    sql`WITH ${citedAndTotal(agentId)},
      d AS (
        SELECT m.id, m.kind, m.created_at, row_number() OVER (ORDER BY m.created_at, m.id) AS pos
        FROM memories m WHERE ${deletable(agentId, policy)}
      ),
      gone AS (SELECT id, kind, created_at FROM d WHERE ${doomed(policy, now, sql`d.created_at`, sql`d.pos`)})
      SELECT kind, count(*)::int AS n, (array_agg(id ORDER BY created_at, id))[1:${FORGET_SAMPLE}] AS sample
      FROM gone GROUP BY GROUPING SETS ((kind), ())`,
  );
  const byKind: Record<string, number> = {};
  let all: Row | undefined;
  for (const r of rows) {
    if (r.kind === null) all = r;
    else byKind[r.kind] = Number(r.n);
  }
  return { count: Number(all?.n ?? 0), byKind, sample: all?.sample ?? [] };
}
