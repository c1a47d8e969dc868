import { and, eq, isNull, type SQL } from "drizzle-orm";
import { githubImports, type ImportCounts } from "../../../db/schema";
import { NotFound } from "../../../lib/errors";
import { AgentErased, erasedSince } from "../../../memory/erasure/guard";
import { inMemoryTransaction } from "../../../memory/transaction";
import type { IngestDeps } from "../deps";
import { routeAgents } from "../route-agents";
import { type GithubEvent, storeEvent } from "../store-event";
import { createGithubClient, type GithubClient } from "./client";
import { type GithubImport, NO_COUNTS, toImport } from "./imports";
import {
  commentEvents,
  commitEvents,
  issueEvents,
  pullEvents,
  type RestComment,
  type RestCommit,
  type RestIssue,
  type RestPull,
  type RestRelease,
  type RestRepo,
  type RestReview,
  releaseEvents,
  reviewEvents,
} from "./rest-events";

/** Phases in order; each walks one paginated list. */
export const PHASES = ["issues", "pulls", "releases", "commits"] as const;
export type Phase = (typeof PHASES)[number];

/** Where the GitHub REST API is and how to authenticate (config), and the test-only time unit. */
export type GithubAccess = { token: string | null; baseUrl: string; timeUnitMs?: number };

export type ImportProgress = { phase: Phase; page: number; lastPage: number | null; counts: ImportCounts };

type Ctx = { client: GithubClient; repo: RestRepo; owner: string; name: string; since: Date | null };

/** The first page of a phase's list: a stable order (oldest first) where the API offers one. */
function firstPage(phase: Phase, c: Ctx) {
  const base = { owner: c.owner, repo: c.name, per_page: 100 };
  const since = c.since ? { since: c.since.toISOString() } : {};
  switch (phase) {
    case "issues":
      // `since` here is "updated since": an issue opened earlier but closed after it is included.
      return {
        route: "GET /repos/{owner}/{repo}/issues",
        params: { ...base, state: "all", sort: "created", direction: "asc", ...since },
      };
    case "pulls":
      return {
        route: "GET /repos/{owner}/{repo}/pulls",
        params: { ...base, state: "all", sort: "created", direction: "asc" },
      };
    case "releases":
      return { route: "GET /repos/{owner}/{repo}/releases", params: base };
    case "commits":
      return {
        route: "GET /repos/{owner}/{repo}/commits",
        params: { ...base, sha: c.repo.default_branch, ...since },
      };
  }
}

/** Whether an item updated at `updatedAt` may hold something new since `since`. */
const touchedSince = (updatedAt: string, since: Date | null) =>
  !since || Date.parse(updatedAt) >= since.getTime();

/** The comments of issue or pull request `n` (its conversation), created or edited since `since`. */
async function listComments(c: Ctx, n: number): Promise<RestComment[]> {
  return (await c.client.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    owner: c.owner,
    repo: c.name,
    issue_number: n,
    per_page: 100,
    ...(c.since ? { since: c.since.toISOString() } : {}),
  })) as unknown as RestComment[];
}

/**
 * A page's events. Issues bring their comments, pull requests their reviews and conversation
 * comments: one more list per item updated since `since` (issues only when they have comments).
 */
async function pageEvents(
  phase: Phase,
  items: unknown[],
  c: Ctx,
): Promise<{ events: GithubEvent[]; fetched: number }> {
  switch (phase) {
    case "issues": {
      const events: GithubEvent[] = [];
      let fetched = items.length;
      for (const issue of items as RestIssue[]) {
        events.push(...issueEvents(issue, c.repo, c.since));
        // Pull requests in the issues list: their comments come with the pulls phase.
        if (issue.pull_request || issue.comments === 0 || !touchedSince(issue.updated_at, c.since)) continue;
        const comments = await listComments(c, issue.number);
        fetched += comments.length;
        const on = { number: issue.number, title: issue.title, html_url: issue.html_url, pullRequest: false };
        events.push(...comments.flatMap((x) => commentEvents(x, on, c.repo, c.since)));
      }
      return { events, fetched };
    }
    case "releases":
      return {
        events: (items as RestRelease[]).flatMap((r) => releaseEvents(r, c.repo, c.since)),
        fetched: items.length,
      };
    case "commits":
      return {
        events: (items as RestCommit[]).flatMap((x) => commitEvents(x, c.repo)),
        fetched: items.length,
      };
    case "pulls": {
      const events: GithubEvent[] = [];
      let fetched = items.length;
      for (const pr of items as RestPull[]) {
        events.push(...pullEvents(pr, c.repo, c.since));
        if (!touchedSince(pr.updated_at, c.since)) continue;
        const reviews = (await c.client.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
          owner: c.owner,
          repo: c.name,
          pull_number: pr.number,
          per_page: 100,
        })) as unknown as RestReview[];
        const comments = await listComments(c, pr.number);
        fetched += reviews.length + comments.length;
        events.push(...reviews.flatMap((r) => reviewEvents(r, pr, c.repo, c.since)));
        const on = { number: pr.number, title: pr.title, html_url: pr.html_url, pullRequest: true };
        events.push(...comments.flatMap((x) => commentEvents(x, on, c.repo, c.since)));
      }
      return { events, fetched };
    }
  }
}

/** `rel="next"` and the page number of `rel="last"` from a Link header. */
function links(header: string | undefined): { next: string | null; lastPage: number | null } {
  const next = header?.match(/<([^<>]+)>;\s*rel="next"/)?.[1] ?? null;
  const last = header?.match(/<([^<>]+)>;\s*rel="last"/)?.[1];
  const page = last ? Number(new URL(last).searchParams.get("page")) : Number.NaN;
  return { next, lastPage: Number.isFinite(page) && page > 0 ? page : null };
}

/**
 * Another run of the same import committed the page this run was about to commit (a command
 * and a job, or a job announced again while a slow run waited out a rate limit): this run stops
 * and leaves the import to the other.
 */
class Superseded extends Error {}

/** The import is still where this run left it: the same phase and next page. */
const stillAt = (importId: string, at: { phase: string | null; cursor: string | null }): SQL | undefined =>
  and(
    eq(githubImports.id, importId),
    at.phase === null ? isNull(githubImports.phase) : eq(githubImports.phase, at.phase),
    at.cursor === null ? isNull(githubImports.cursor) : eq(githubImports.cursor, at.cursor),
  );

const add = (a: ImportCounts, b: Partial<ImportCounts>): ImportCounts => ({
  fetched: a.fetched + (b.fetched ?? 0),
  stored: a.stored + (b.stored ?? 0),
  duplicates: a.duplicates + (b.duplicates ?? 0),
  ignored: a.ignored + (b.ignored ?? 0),
  rateLimited: a.rateLimited + (b.rateLimited ?? 0),
});

/**
 * Runs (or resumes) an import: every phase's pages in order, each page's observations and the
 * import's progress (phase, next page URL, counts) committed in ONE transaction, so a crash loses
 * at most the page in hand and a rerun starts at it. Events go through `storeEvent` (the
 * webhooks' describers, noise rules and event keys): re-running, or a webhook that delivered the
 * same event, stores nothing twice. A page is committed only if the import is still where this
 * run left it, so two runs of one import never both count a page: the one that finds it moved on
 * stops and returns the import as the other left it. On error the import is marked `failed` with
 * the reason and the error rethrown (the job retries; the command says how to resume). A finished
 * import is returned as is.
 */
export async function runImport(
  deps: IngestDeps,
  importId: string,
  opts: { github: GithubAccess; onProgress?: (p: ImportProgress) => void },
): Promise<GithubImport> {
  const db = deps.db;
  const [row] = await db.select().from(githubImports).where(eq(githubImports.id, importId));
  if (!row) throw new NotFound(`GitHub import ${importId} not found`, { importId });
  if (row.status === "succeeded") return toImport(row);
  const now = () => deps.clock.now();
  await db
    .update(githubImports)
    .set({ status: "running", attempts: row.attempts + 1, error: null, updatedAt: now() })
    .where(eq(githubImports.id, importId));
  let counts: ImportCounts = { ...NO_COUNTS, ...row.counts };
  // Rate-limit answers since the last committed page (the client waits them out itself).
  let limited = 0;
  const client = createGithubClient({ ...opts.github, logger: deps.logger, onRateLimit: () => limited++ });
  try {
    const [owner = "", name = ""] = row.repo.split("/");
    const { data: repo } = await client.request("GET /repos/{owner}/{repo}", { owner, repo: name });
    const c: Ctx = { client, repo: repo as unknown as RestRepo, owner, name, since: row.since };
    const agentIds = row.agentIds.length > 0 ? row.agentIds : routeAgents(deps.routes, { repository: repo });
    if (agentIds.length === 0)
      throw new Error(`no agent to import ${row.repo} into: give agent ids or a GITHUB_ROUTES rule`);
    await endIfErased(deps, agentIds, row.erasureHorizon);

    let phaseIndex = Math.max(0, PHASES.indexOf((row.phase ?? PHASES[0]) as Phase));
    let cursor = row.cursor;
    // Where this run last saw the import (compare-and-set on every page commit).
    let at: { phase: string | null; cursor: string | null } = { phase: row.phase, cursor: row.cursor };
    for (; phaseIndex < PHASES.length; phaseIndex++) {
      const phase = PHASES[phaseIndex] as Phase;
      const start = firstPage(phase, c);
      const pages = cursor
        ? client.paginate.iterator(`GET ${cursor}`)
        : client.paginate.iterator(start.route, start.params);
      let page = cursor ? Number(new URL(cursor).searchParams.get("page")) || 1 : 1;
      for await (const response of pages) {
        const { events, fetched } = await pageEvents(phase, response.data as unknown[], c);
        const { next, lastPage } = links(response.headers.link);
        const nextPhase = next ? phase : (PHASES[phaseIndex + 1] ?? null);
        const pageCounts = await inMemoryTransaction(deps, async (memory, tx) => {
          const n: Partial<ImportCounts> = { fetched, stored: 0, duplicates: 0, ignored: 0 };
          const erased = new Set<string>();
          for (const event of events) {
            for (const agentId of agentIds) {
              if (erased.has(agentId)) continue;
              const out = await storeEvent(memory, agentId, event, {
                fallbackTime: now().toISOString(),
                metadata: { importId },
                horizon: row.erasureHorizon,
              });
              if (out.status === "stored") n.stored = (n.stored ?? 0) + out.observations;
              else if (out.status === "duplicate") n.duplicates = (n.duplicates ?? 0) + 1;
              else if (out.status === "erased") erased.add(agentId);
              else n.ignored = (n.ignored ?? 0) + 1;
            }
          }
          // Every agent it writes to was erased after it began: it ends here, writing nothing more.
          if (erased.size === agentIds.length && agentIds[0]) throw new AgentErased(agentIds[0]);
          n.rateLimited = limited;
          const moved = await tx
            .update(githubImports)
            .set({ phase: nextPhase, cursor: next, counts: add(counts, n), updatedAt: now() })
            .where(stillAt(importId, at))
            .returning({ id: githubImports.id });
          // Rolls back this page's observations too (the other run stored the same events).
          if (moved.length === 0) throw new Superseded(`import ${importId} moved on in another run`);
          return n;
        });
        at = { phase: nextPhase, cursor: next };
        counts = add(counts, pageCounts);
        limited = 0;
        opts.onProgress?.({ phase, page, lastPage: lastPage ?? page, counts });
        page++;
      }
      cursor = null;
    }
    const [done] = await db
      .update(githubImports)
      .set({ status: "succeeded", phase: null, cursor: null, counts, updatedAt: now(), finishedAt: now() })
      .where(eq(githubImports.id, importId))
      .returning();
    return toImport(done ?? row);
  } catch (error) {
    if (error instanceof Superseded) {
      deps.logger.info("GitHub import continued by another run; this one stops", { importId });
      const [current] = await db.select().from(githubImports).where(eq(githubImports.id, importId));
      return toImport(current ?? row);
    }
    const message = error instanceof Error ? error.message : String(error);
    await db
      .update(githubImports)
      .set({ status: "failed", error: message.slice(0, 500), updatedAt: now() })
      .where(eq(githubImports.id, importId))
      .catch(() => {});
    throw error;
  }
}

/** Ends the import (as failed, by `AgentErased`) when every agent it writes to was erased after it began. */
async function endIfErased(deps: IngestDeps, agentIds: string[], horizon: number): Promise<void> {
  for (const agentId of agentIds) {
    const gone = await deps.db.transaction((tx) => erasedSince(tx, agentId, { horizon }));
    if (!gone) return;
  }
  if (agentIds[0]) throw new AgentErased(agentIds[0]);
}
