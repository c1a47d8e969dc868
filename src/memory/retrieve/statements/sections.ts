import { type SQL, sql } from "drizzle-orm";
import { scaledColumnsSql, scoreOfColumnsSql } from "../ranking/score";
import { candidateCtes } from "./candidates";
import type { RankParams, RankSection } from "./params";
import { memoryColumns, rankedColumns } from "./select";

/**
 * The exact ranking split into sections, in one statement: every candidate (the union of the
 * sections' kinds) is scored as by `fullRankQuery`, with bounds over that whole union so scores
 * compare across sections; each memory belongs to the section naming its kind (kinds are named
 * once: retrieve.ts checks), else to the section without kinds, if any; each section keeps its
 * own top k (a LATERAL top-k per section over the scored set, so no section sorts more than its
 * own rows' heap). Rows come back section by section, best first, with `section`, the section's
 * index. A memory appears in one section at most.
 */
export function sectionRankQuery(p: RankParams & { sections: RankSection[] }): SQL {
  const ks = sql.join(
    p.sections.map((s, i) => sql`(${i}::int, ${s.k}::int)`),
    sql`, `,
  );
  return sql`
    ${candidateCtes(p, sql`, ${sectionOf(p.sections)} AS sec`)}
    scored AS MATERIALIZED (
      SELECT s.id, s.sec, s.recency, s.importance, s.relevance, s.raw_relevance, ${scoreOfColumnsSql(p.weights, "s")} AS score
      FROM (
        SELECT c.id, c.sec, ${scaledColumnsSql("c", "b")}
        FROM cand c CROSS JOIN b WHERE c.sec IS NOT NULL
      ) s
    ),
    top AS (
      SELECT t.* FROM (VALUES ${ks}) AS sk(sec, k)
      CROSS JOIN LATERAL (
        SELECT * FROM scored WHERE scored.sec = sk.sec ORDER BY score DESC, id COLLATE "C" LIMIT sk.k
      ) t
    )
    SELECT ${memoryColumns}, top.sec AS section, ${rankedColumns},
      (SELECT n FROM b) AS candidates
    FROM top JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = top.id
    ORDER BY top.sec, top.score DESC, top.id COLLATE "C"`;
}

/** The section of a memory by its kind: the section naming it, else the one without kinds; NULL = none. */
function sectionOf(sections: RankSection[]): SQL {
  const named = sections.flatMap((s, i) =>
    s.kinds
      ? [
          sql`WHEN memories.kind IN (${sql.join(
            s.kinds.map((k) => sql`${k}`),
            sql`, `,
          )}) THEN ${i}::int`,
        ]
      : [],
  );
  const rest = sections.findIndex((s) => s.kinds === null);
  const otherwise = rest >= 0 ? sql`${rest}::int` : sql`NULL::int`;
  return named.length === 0 ? otherwise : sql`CASE ${sql.join(named, sql` `)} ELSE ${otherwise} END`;
}
