import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  type GithubImportRow,
  githubImports,
  type ImportCounts,
  type ImportStatus,
} from "../../../db/schema";
import { NotFound } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import type { MemoryDeps } from "../../../memory/deps";
import { currentHorizon } from "../../../memory/erasure/guard";
import type { IngestDeps } from "../deps";

/** An import as the API and the command show it. */
export type GithubImport = {
  id: string;
  repo: string;
  agentIds: string[];
  since: string | null;
  status: ImportStatus;
  phase: string | null;
  counts: ImportCounts;
  attempts: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
};

export const NO_COUNTS: ImportCounts = { fetched: 0, stored: 0, duplicates: 0, ignored: 0, rateLimited: 0 };

export const toImport = (r: GithubImportRow): GithubImport => ({
  id: r.id,
  repo: r.repo,
  agentIds: r.agentIds,
  since: r.since?.toISOString() ?? null,
  status: r.status,
  phase: r.phase,
  counts: { ...NO_COUNTS, ...r.counts },
  attempts: r.attempts,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

/**
 * The import of `repo` into `agentIds` (empty: routed like webhooks) since `since`: an unfinished
 * one with the same parameters is returned to be resumed (`resumed: true`), else a new one is
 * created `queued`. Re-running a finished import creates a new one, which stores only what is new;
 * so does asking again for one whose agents were erased since it began (it would write nothing).
 */
export async function openImport(
  deps: Pick<MemoryDeps, "db" | "clock">,
  input: { repo: string; agentIds: string[]; since: string | null },
): Promise<{ import: GithubImport; resumed: boolean }> {
  const since = input.since ? new Date(input.since) : null;
  const agents = [...new Set(input.agentIds)].sort();
  const [unfinished] = await deps.db
    .select()
    .from(githubImports)
    .where(
      and(
        eq(githubImports.repo, input.repo),
        inArray(githubImports.status, ["queued", "running", "failed"]),
        // Stored sorted and deduplicated, so the same set is the same array.
        eq(githubImports.agentIds, agents),
        since ? eq(githubImports.since, since) : isNull(githubImports.since),
        // One whose agents were erased since it was created writes nothing more: start afresh.
        sql`NOT EXISTS (SELECT 1 FROM agent_erasures e
          WHERE e.agent_id = ANY(${githubImports.agentIds}) AND e.seq > ${githubImports.erasureHorizon})`,
      ),
    )
    .orderBy(desc(githubImports.createdAt))
    .limit(1);
  if (unfinished) return { import: toImport(unfinished), resumed: true };
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(githubImports)
    .values({
      id: newId("imp"),
      repo: input.repo,
      agentIds: agents,
      since,
      counts: NO_COUNTS,
      // What it has seen of erasures: an agent erased after this gets nothing from it (ADR 0027).
      erasureHorizon: await currentHorizon(deps.db),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { import: toImport(row as GithubImportRow), resumed: false };
}

/**
 * Opens (or resumes) an import of `repo` into `agentId` and announces it (`import.opened`: a
 * `github.import` job runs it): the API's one call. The row is written first, so an import whose
 * announcement is lost is found by the sweep. (`npm run import:github` opens and runs one in-process.)
 */
export async function startImport(
  deps: Pick<IngestDeps, "db" | "clock" | "announce">,
  input: { repo: string; agentId: string; since: string | null },
): Promise<{ import: GithubImport; resumed: boolean }> {
  const opened = await openImport(deps, { repo: input.repo, agentIds: [input.agentId], since: input.since });
  await deps.announce([{ kind: "import.opened", importId: opened.import.id, agentId: input.agentId }]);
  return opened;
}

/** One import; `agentId` limits it to imports writing to that agent (tenant scoping of the API). */
export async function getImport(
  deps: Pick<MemoryDeps, "db">,
  id: string,
  agentId?: string,
): Promise<GithubImport> {
  const [row] = await deps.db.select().from(githubImports).where(eq(githubImports.id, id));
  if (!row || (agentId !== undefined && !row.agentIds.includes(agentId))) {
    throw new NotFound(`GitHub import ${id} not found`, { id });
  }
  return toImport(row);
}
