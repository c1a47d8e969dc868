import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobRequest } from "../../src/jobs/catalog";
import { sweepOnce } from "../../src/jobs/sweep";
import { createMemories } from "../../src/memory/create-memories";
import { claimRows } from "../../src/memory/enrichment/claim";
import { markFailed } from "../../src/memory/enrichment/fail";
import { stalePending } from "../../src/memory/enrichment/stale";
import { agentsDueForRetention, retainAgent } from "../../src/memory/retention/retain";
import { updateAgentSettings } from "../../src/memory/update-agent-settings";
import { uniq } from "../support/env";
import { fixedClock, startTestSystem, type TestSystem, without } from "../support/system";

// One source of time: claims, staleness and retention follow the injected Clock, never the
// database's now(). The clock here is far in the future, so a statement that read the database's
// now() instead would see every claim live and no memory stale.
const T0 = "2100-01-01T00:00:00.000Z";
const at = (ms: number) => fixedClock(new Date(Date.parse(T0) + ms).toISOString());

let t: TestSystem;
const agent = uniq("clock");
beforeAll(async () => {
  t = await startTestSystem({ clock: fixedClock(T0), announce: without("memories.pending") });
});
afterAll(async () => {
  await t?.call("DELETE", `/v1/agents/${agent}`);
  await t?.close();
});

const pendingMemory = async () => {
  const [m] = await createMemories(t.system.services, agent, [{ description: `pending ${Math.random()}` }]);
  if (!m) throw new Error("no memory created");
  return { memoryId: m.id, agentId: agent, revision: 1 };
};

describe("the clock decides", () => {
  it("staleness: a memory is stale once the clock, not the database, says afterMs passed", async () => {
    const ref = await pendingMemory();
    const stale = async (ms: number) =>
      (
        await stalePending({ db: t.system.services.db, clock: at(ms) }, { afterMs: 60_000, limit: 100_000 })
      ).rows
        .map((r) => r.memoryId)
        .includes(ref.memoryId);
    expect(await stale(30_000)).toBe(false);
    expect(await stale(61_000)).toBe(true);
  });

  it("the sweep re-enqueues by the clock", async () => {
    const ref = await pendingMemory();
    const swept = async (ms: number) => {
      const jobs: JobRequest[] = [];
      await sweepOnce({
        db: t.system.services.db,
        clock: at(ms),
        sink: { enqueue: async (js) => void jobs.push(...js) },
        afterMs: 60_000,
        limit: 100_000,
        embedChunk: 100,
        deliveryAttempts: 1,
      });
      return jobs.some(
        (j) => j.name === "memories.embed" && j.payload.items.some((i) => i.memoryId === ref.memoryId),
      );
    };
    expect(await swept(30_000)).toBe(false);
    expect(await swept(61_000)).toBe(true);
  });

  it("claims: a claim lasts claimMs on the clock; only then may another job take or fail the row", async () => {
    const ref = await pendingMemory();
    const db = t.system.services.db;
    const claim = async (ms: number, owner: string) =>
      (await claimRows({ db, clock: at(ms) }, "embedding", [ref], owner, 1_000)).length;
    expect(await claim(0, "job-a")).toBe(1);
    expect(await claim(500, "job-b")).toBe(0);
    expect(await claim(1_500, "job-b")).toBe(1);
    // job-b's claim runs to 2,500: job-a may not fail the row before then.
    expect(await markFailed({ db, clock: at(2_000) }, "embedding", [ref], "job-a", "x")).toBe(0);
    expect(await markFailed({ db, clock: at(3_000) }, "embedding", [ref], "job-a", "x")).toBe(1);
  });

  it("retention: a run is due again once the clock says its interval passed, and ages are the clock's", async () => {
    const db = t.system.services.db;
    const owner = uniq("clock-retain");
    try {
      // Written at T0 + 0; a policy of 1 day: gone only when the clock is a day on.
      await createMemories(t.system.services, owner, [{ description: "kept, then aged out" }]);
      await updateAgentSettings(
        { db, clock: at(0) },
        owner,
        { retention: { maxAgeDays: 1 } },
        { reflectionThreshold: 150, learnWeights: false },
      );
      const due = async (ms: number) =>
        (
          await agentsDueForRetention({ db, clock: at(ms) }, { intervalMs: 3_600_000, limit: 100_000 })
        ).includes(owner);
      expect(await due(0)).toBe(true); // never ran
      expect(
        await retainAgent({ db, clock: at(1_000), embedder: t.system.services.embedder }, owner),
      ).toEqual({ deleted: 0 });
      expect(await due(1_000 + 3_599_000)).toBe(false);
      expect(await due(1_000 + 3_601_000)).toBe(true);
      expect(
        await retainAgent({ db, clock: at(86_401_000), embedder: t.system.services.embedder }, owner),
      ).toEqual({ deleted: 1 });
    } finally {
      await t.call("DELETE", `/v1/agents/${owner}`);
    }
  });
});

// No SQL in src/ reads the database's now(): the Clock is the one source of time. (The last two,
// a vector's record-keeping created_at, became the insert's default: Citus refuses now() in an
// ON CONFLICT DO UPDATE; docs/adr/0011-scale-out.md.)
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
/** Template literals (SQL is written in them) of a source text, comments left out, that call now(). */
const sqlNow = (name: string, text: string): string[] => {
  const code = text
    .split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .join("\n");
  return [...code.matchAll(/`[^`]*`/g)].flatMap((m) =>
    /(^|[^.\w])now\(\)/i.test(m[0]) ? [`${name}: ${m[0]}`] : [],
  );
};

it("no SQL in src/ reads the database's now() (the Clock is the one source of time)", () => {
  const offenders = files("src").flatMap((f) => sqlNow(f, readFileSync(f, "utf8")));
  expect(offenders).toEqual([]);
});

it("the check itself finds a now() in SQL, and not Date.now() or a comment", () => {
  const sample = [
    "const a = sql`UPDATE memories SET updated_at = now() WHERE id = $1`;",
    "const b = Date.now();",
    "// sql`now()` in a comment",
    "const c = clock.now();",
  ].join("\n");
  expect(sqlNow("sample.ts", sample)).toEqual([
    "sample.ts: `UPDATE memories SET updated_at = now() WHERE id = $1`",
  ]);
});
