import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { System } from "../../src/compose";
import { queryRows } from "../../src/db/client";
import { importanceSinceLastReflection } from "../../src/memory/reflect/should-reflect";
import { SETUP_MS, uniq } from "../support/env";
import {
  type EmbeddedBeside,
  fixedClock,
  startEmbeddedBeside,
  startTestSystem,
  type TestSystem,
} from "../support/system";

// Tiers: compaction moves older observations behind summaries into the archive; retrieve ranks
// recent + summary, expands a summary into its members, promotes what is expanded often; every
// deletion path reaches the archive. On PostgreSQL and on the embedded database.
const s = uniq("tiers");
// In the future: another file's real-clock sweep never sees these agents' memories as expired.
const clock = fixedClock("2099-03-01T12:00:00.000Z");
const enc = encodeURIComponent;
type Call = (method: string, path: string, body?: unknown) => Promise<Response>;
type Mem = {
  id: string;
  kind: string;
  description: string;
  citations: string[];
  missingCitations?: string[];
  archived?: { summaryId: string; expansions: number };
  expanded?: (Mem & { similarity: number | null })[];
};

let pg: TestSystem;
let lite: EmbeddedBeside;
beforeAll(async () => {
  pg = await startTestSystem({ clock });
  lite = await startEmbeddedBeside(pg, { clock });
}, SETUP_MS);
afterAll(async () => {
  await lite?.system.close();
  await pg?.close();
});
const backends = () => ({ postgres: pg.call, pglite: lite.call });
const apps = () => ({ postgres: pg.app, pglite: lite.app });

async function ok<T>(res: Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(status);
  return (await r.json()) as T;
}

/** The stub model's 64 dimensions: axis `i`, nudged along axis 10 + j so members of one topic differ. */
const vec = (i: number, j = 0) =>
  Array.from({ length: 64 }, (_, k) => (k === i ? 1 : 0) + (k === 10 + j ? 0.3 : 0));

/**
 * Two old days (2099-01-01: six turns about gardening, axis 0; 2099-01-02: five about chess, axis 1)
 * and two recent memories (axis 2). Returns the ids by day.
 */
async function seed(call: Call, agent: string) {
  const write = (memories: unknown[]) =>
    ok<{ memories: { id: string }[] }>(call("POST", `/v1/agents/${enc(agent)}/memories`, { memories }), 201);
  const day1 = await write(
    [0, 1, 2, 3, 4, 5].map((j) => ({
      description: `garden note ${j}: planted tomato row ${j}`,
      createdAt: `2099-01-01T10:0${j}:00.000Z`,
      importance: 3 + j,
      embedding: vec(0, j),
      metadata: { tag: j === 5 ? "secret" : "garden" },
    })),
  );
  const day2 = await write(
    [0, 1, 2, 3, 4].map((j) => ({
      description: `chess game ${j}: opened with the queen's gambit`,
      createdAt: `2099-01-02T10:0${j}:00.000Z`,
      importance: 4,
      embedding: vec(1, j),
    })),
  );
  const recent = await write(
    [0, 1].map((j) => ({
      description: `today's note ${j}`,
      createdAt: `2099-03-01T11:0${j}:00.000Z`,
      importance: 5,
      embedding: vec(2, j),
    })),
  );
  return {
    day1: day1.memories.map((m) => m.id),
    day2: day2.memories.map((m) => m.id),
    recent: recent.memories.map((m) => m.id),
  };
}

const compact = (call: Call, agent: string, body: Record<string, unknown> = {}) =>
  ok<{ compaction: { summaries: number; archived: number; more: boolean } }>(
    call("POST", `/v1/agents/${enc(agent)}/maintenance`, { before: "2099-02-01T00:00:00.000Z", ...body }),
  );
const list = (call: Call, agent: string, query = "") =>
  ok<{ memories: Mem[]; nextCursor: string | null }>(
    call("GET", `/v1/agents/${enc(agent)}/memories${query}`),
  );
const retrieve = (call: Call, agent: string, body: Record<string, unknown>) =>
  ok<{ memories: Mem[] }>(
    call("POST", `/v1/agents/${enc(agent)}/retrieve`, { touch: false, mode: "exact", k: 10, ...body }),
  );
const archiveRows = async (system: System, agent: string) =>
  Number(
    (
      await queryRows<{ n: number | string }>(
        system.database.db,
        sql`SELECT count(*) AS n FROM memory_archive WHERE agent_id = ${agent}`,
      )
    )[0]?.n,
  );

describe.each(["postgres", "pglite"] as const)(
  "memory tiers on %s",
  (backend) => {
    const system = () => (backend === "postgres" ? pg.system : lite.system);

    it("compacts older days into summaries, archives their members, and ranks recent + summary", async () => {
      const call = backends()[backend];
      const agent = `compact-${backend}-${s}`;
      const ids = await seed(call, agent);
      // Edits before compaction (importance: the vector stays): their history must survive the move.
      await ok(call("PATCH", `/v1/agents/${enc(agent)}/memories/${ids.day1[1]}`, { importance: 9 }));
      await ok(call("PATCH", `/v1/agents/${enc(agent)}/memories/${ids.day1[1]}`, { importance: 4 }));
      const dry = await compact(call, agent, { dryRun: true });
      expect(dry.compaction).toMatchObject({ summaries: 2, archived: 11 });
      expect(await archiveRows(system(), agent)).toBe(0);

      const run = await compact(call, agent);
      expect(run.compaction).toMatchObject({ summaries: 2, archived: 11, more: false });
      // Idempotent: nothing older is left to compact.
      expect((await compact(call, agent)).compaction).toMatchObject({ summaries: 0, archived: 0 });

      // A summary's importance is its members', counted when they were written: not toward a reflection again.
      expect(await importanceSinceLastReflection(system().database.db, agent)).toBe(5 + 5);

      const stats = await ok<{ total: number; tiers: Record<string, number> }>(
        call("GET", `/v1/agents/${enc(agent)}/stats`),
      );
      expect(stats.tiers).toEqual({ recent: 2, summary: 2, archive: 11 });
      expect(stats.total).toBe(4);

      const shown = (await list(call, agent)).memories;
      expect(shown.map((m) => m.kind).sort()).toEqual(["observation", "observation", "summary", "summary"]);
      const garden = shown.find((m) => m.description.includes("garden")) as Mem;
      expect([...garden.citations].sort()).toEqual([...ids.day1].sort());
      expect(garden.missingCitations).toBeUndefined();
      expect(garden.description).toContain("planted tomato row 5");

      const archived = (await list(call, agent, "?tiers=archive")).memories;
      expect(archived.map((m) => m.id).sort()).toEqual([...ids.day1, ...ids.day2].sort());
      expect(archived.every((m) => m.archived?.summaryId)).toBe(true);
      // One cursor walks both tables: 15 memories in pages of 4, each once.
      const seen: string[] = [];
      let cursor: string | null = "";
      while (cursor !== null) {
        const page = await list(
          call,
          agent,
          `?tiers=recent,summary,archive&limit=4${cursor ? `&cursor=${cursor}` : ""}`,
        );
        seen.push(...page.memories.map((m) => m.id));
        cursor = page.nextCursor;
      }
      expect(seen.length).toBe(15);
      expect(new Set(seen).size).toBe(15);

      const one = await ok<Mem>(call("GET", `/v1/agents/${enc(agent)}/memories/${ids.day1[2]}`));
      expect(one.archived?.summaryId).toBe(garden.id);
      // Its edit history went to the archive with it.
      const history = await ok<{ revisions: { importance: number }[] }>(
        call("GET", `/v1/agents/${enc(agent)}/memories/${ids.day1[1]}/history`),
      );
      expect(history.revisions.map((r) => r.importance)).toEqual([9, 4]);

      // Ranked: no archived memory; tiers narrow to one kind of row.
      const ranked = await retrieve(call, agent, { queryEmbedding: vec(0, 2) });
      const archivedIds = new Set([...ids.day1, ...ids.day2]);
      expect(ranked.memories.some((m) => archivedIds.has(m.id))).toBe(false);
      expect(ranked.memories[0]?.id).toBe(garden.id);
      const recentOnly = await retrieve(call, agent, { queryEmbedding: vec(0), tiers: ["recent"] });
      expect(recentOnly.memories.map((m) => m.kind)).toEqual(["observation", "observation"]);
      const summariesOnly = await retrieve(call, agent, { queryEmbedding: vec(0), tiers: ["summary"] });
      expect(summariesOnly.memories.map((m) => m.kind)).toEqual(["summary", "summary"]);

      // Expansion: the garden summary's members, best first by cosine to the query.
      const expanded = await retrieve(call, agent, { queryEmbedding: vec(0, 4), expand: 2 });
      const top = expanded.memories.find((m) => m.id === garden.id) as Mem;
      expect(top.expanded?.length).toBe(2);
      expect(top.expanded?.[0]?.id).toBe(ids.day1[4]);
      expect(top.expanded?.[0]?.similarity).toBeGreaterThan(top.expanded?.[1]?.similarity ?? 1);
      // Flattened: the summaries give way to their members, the closest first, each naming its summary.
      const flat = await retrieve(call, agent, { queryEmbedding: vec(0, 4), flatten: true, k: 4 });
      expect(flat.memories.some((m) => m.kind === "summary")).toBe(false);
      const first = flat.memories[0] as Mem & { expandedFrom?: string };
      expect(first.id).toBe(ids.day1[4]);
      expect(first.expandedFrom).toBe(garden.id);
      expect(flat.memories.length).toBe(4);
      // Without expand, no members ride along.
      expect(ranked.memories.every((m) => m.expanded === undefined)).toBe(true);
    });

    it("deletion reaches the archive: by id (the summary is worded again), by filter, with its summary, by expiry and by erase", async () => {
      const call = backends()[backend];
      const agent = `delete-${backend}-${s}`;
      const ids = await seed(call, agent);
      await compact(call, agent);
      const summaries = (await list(call, agent, "?kind=summary")).memories;
      const garden = summaries.find((m) => m.description.includes("garden")) as Mem;
      const chess = summaries.find((m) => m.description.includes("chess")) as Mem;

      // By id: gone, and its summary no longer quotes or cites it.
      await ok(call("DELETE", `/v1/agents/${enc(agent)}/memories/${ids.day1[0]}`));
      expect((await call("GET", `/v1/agents/${enc(agent)}/memories/${ids.day1[0]}`)).status).toBe(404);
      const reworded = await ok<Mem>(call("GET", `/v1/agents/${enc(agent)}/memories/${garden.id}`));
      expect(reworded.citations).not.toContain(ids.day1[0]);
      expect(reworded.citations.length).toBe(5);
      expect(reworded.description).not.toContain("planted tomato row 0");

      // By filter: the archived member tagged secret (dry run counts it first).
      const dry = await ok<{ count: number }>(
        call("POST", `/v1/agents/${enc(agent)}/memories/delete`, {
          filter: { metadata: { tag: "secret" } },
          dryRun: true,
        }),
      );
      expect(dry.count).toBe(1);
      const byFilter = await ok<{ count: number }>(
        call("POST", `/v1/agents/${enc(agent)}/memories/delete`, { filter: { metadata: { tag: "secret" } } }),
      );
      expect(byFilter.count).toBe(1);
      expect((await call("GET", `/v1/agents/${enc(agent)}/memories/${ids.day1[5]}`)).status).toBe(404);
      const afterFilter = await ok<Mem>(call("GET", `/v1/agents/${enc(agent)}/memories/${garden.id}`));
      expect(afterFilter.description).not.toContain("planted tomato row 5");

      // A deleted summary takes the members it stood for.
      const gone = await ok<{ derived: Record<string, number> }>(
        call("DELETE", `/v1/agents/${enc(agent)}/memories/${chess.id}`),
      );
      expect(gone).toBeTruthy();
      for (const id of ids.day2)
        expect((await call("GET", `/v1/agents/${enc(agent)}/memories/${id}`)).status).toBe(404);
      expect(await archiveRows(system(), agent)).toBe(4);

      // Erase: nothing archived survives.
      const erased = await ok<{ deleted: number }>(call("DELETE", `/v1/agents/${enc(agent)}`));
      expect(erased.deleted).toBe(4 + 1 + 2);
      expect(await archiveRows(system(), agent)).toBe(0);
    });

    it("an archived memory expires, and one expanded promoteAfter times is promoted back to the ranked stream", async () => {
      const call = backends()[backend];
      const agent = `promote-${backend}-${s}`;
      const ids = await seed(call, agent);
      // Member 3 of day 1 expires at 2099-03-01T13:00, while archived.
      await ok(
        call("PATCH", `/v1/agents/${enc(agent)}/memories/${ids.day1[3]}`, {
          expiresAt: "2099-03-01T13:00:00.000Z",
        }),
      );
      await ok(
        call("PUT", `/v1/agents/${enc(agent)}/settings`, { compaction: { afterDays: 30, promoteAfter: 2 } }),
      );
      await compact(call, agent, { before: undefined });
      expect(await archiveRows(system(), agent)).toBe(11);

      const ask = () =>
        ok<{ memories: Mem[] }>(
          call("POST", `/v1/agents/${enc(agent)}/retrieve`, {
            queryEmbedding: vec(0, 1),
            expand: 1,
            mode: "exact",
            k: 3,
          }),
        );
      const first = await ask();
      const garden = first.memories.find(
        (m) => m.kind === "summary" && m.description.includes("garden"),
      ) as Mem;
      expect(garden.expanded?.[0]?.id).toBe(ids.day1[1]);
      const archivedOnce = await ok<Mem>(call("GET", `/v1/agents/${enc(agent)}/memories/${ids.day1[1]}`));
      expect(archivedOnce.archived?.expansions).toBe(1);
      await ask();
      // Expanded twice: back among the ranked memories, without `archived`, ranked on its own.
      const promoted = await ok<Mem>(call("GET", `/v1/agents/${enc(agent)}/memories/${ids.day1[1]}`));
      expect(promoted.archived).toBeUndefined();
      expect((await list(call, agent, "?tiers=recent")).memories.map((m) => m.id)).toContain(ids.day1[1]);
      const ranked = await retrieve(call, agent, { queryEmbedding: vec(0, 1), tiers: ["recent"] });
      expect(ranked.memories[0]?.id).toBe(ids.day1[1]);

      // The clock passes member 3's expiry: it is gone from the archive at the next read.
      clock.set("2099-03-01T13:30:00.000Z");
      try {
        const archived = (await list(call, agent, "?tiers=archive")).memories.map((m) => m.id);
        expect(archived).not.toContain(ids.day1[3]);
        expect(archived.length).toBe(9);
      } finally {
        clock.set("2099-03-01T12:00:00.000Z");
      }
    });

    it("an export carries the archive tier, and an import restores it (twice adds nothing)", async () => {
      const call = backends()[backend];
      const app = apps()[backend];
      const agent = `port-${backend}-${s}`;
      const target = `port-to-${backend}-${s}`;
      const ids = await seed(call, agent);
      await compact(call, agent);
      const file = await (await app.request(`/v1/agents/${enc(agent)}/export`)).text();
      const put = () =>
        app.request(`/v1/agents/${enc(target)}/import`, {
          method: "POST",
          headers: { "content-type": "application/x-ndjson" },
          body: file,
        });
      const first = await put();
      expect(first.status, await first.clone().text()).toBe(200);
      const again = (await (await put()).json()) as { memories: { added: number; existing: number } };
      expect(again.memories).toEqual({ added: 0, existing: 15 });
      const tiers = async (a: string) =>
        (await ok<{ tiers: Record<string, number> }>(call("GET", `/v1/agents/${enc(a)}/stats`))).tiers;
      expect(await tiers(target)).toEqual({ recent: 2, summary: 2, archive: 11 });
      const member = await ok<Mem>(call("GET", `/v1/agents/${enc(target)}/memories/${ids.day1[2]}`));
      const source = await ok<Mem>(call("GET", `/v1/agents/${enc(agent)}/memories/${ids.day1[2]}`));
      expect(member).toEqual({ ...source, agentId: target });
      const ask = (a: string) =>
        retrieve(call, a, { queryEmbedding: vec(0, 4), expand: 2, now: "2099-03-01T12:00:00.000Z" });
      const strip = (r: { memories: Mem[] }) =>
        r.memories.map((m) => [m.id, m.expanded?.map((e) => e.id) ?? null]);
      expect(strip(await ask(target))).toEqual(strip(await ask(agent)));
    });
  },
  120_000,
);
