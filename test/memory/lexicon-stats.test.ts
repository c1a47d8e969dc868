import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { lexiconStatsSql } from "../../src/memory/lexicon/stats";
import type { Memory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// The lexical statistics the triggers keep (migrations 0016, 0018, 0022: the document count and
// length sum) must equal, bit for bit, what a scan of the agent's memories computes, after every
// kind of write: batches, edits, deletes, retention, an erase, concurrent writers, and the folding
// of delta rows.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;
const WORDS =
  "alice bob paris berlin moved lives guitar coffee tea river mountain painting dog cat garden train office rain sunny blue".split(
    " ",
  );
let seed = 11;
const rnd = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
/** A sentence of 1-8 words of a small vocabulary (so lexemes repeat across memories), sometimes only stop words. */
const sentence = () =>
  rnd() < 0.05
    ? "and the of it"
    : Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(
        " ",
      );

async function write(agent: string, n: number, daysAgo = 1): Promise<string[]> {
  const res = await t.call("POST", `${path(agent)}/memories`, {
    memories: Array.from({ length: n }, () => ({
      description: sentence(),
      importance: 5,
      createdAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
    })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: Memory[] }).memories.map((m) => m.id);
}

/** What the triggers kept against what a scan of the agent's memories gives, as comparable text. */
async function compare(agent: string) {
  const db = t.system.database.db;
  const [kept] = await queryRows<{ n: string; avgdl: string | null }>(
    db,
    sql`SELECT n::text, avgdl::text FROM (${lexiconStatsSql(agent)}) s`,
  );
  const [scanned] = await queryRows<{ n: string; avgdl: string | null }>(
    db,
    sql`SELECT count(*)::float8::text AS n, avg(length(description_tsv))::float8::text AS avgdl
      FROM memories WHERE agent_id = ${agent}`,
  );
  if (!kept || !scanned) throw new Error("no statistics row");
  return { kept, scanned };
}

async function expectExact(agent: string) {
  const { kept, scanned } = await compare(agent);
  expect(kept).toEqual(scanned);
  return kept;
}

const deltaRows = async (agent: string) =>
  (
    await queryRows<{ n: number }>(
      t.system.database.db,
      sql`SELECT count(*)::int AS n FROM agent_lexicon WHERE agent_id = ${agent}`,
    )
  )[0]?.n ?? 0;

describe("lexical statistics kept by the database", () => {
  it("equal a scan of the stream after batches, edits and deletes", async () => {
    const agent = uniq("lex");
    const ids = [...(await write(agent, 40)), ...(await write(agent, 1)), ...(await write(agent, 7))];
    const first = await expectExact(agent);
    expect(Number(first.n)).toBe(48);
    // An edit swaps the memory's lexemes; a metadata-only patch changes nothing.
    let res = await t.call("PATCH", `${path(agent)}/memories/${ids[3]}`, {
      description: "zebra zebra crossing",
    });
    expect(res.status).toBe(200);
    res = await t.call("PATCH", `${path(agent)}/memories/${ids[4]}`, { metadata: { a: 1 } });
    expect(res.status).toBe(200);
    const edited = await expectExact(agent);
    expect(edited.avgdl).not.toBe(first.avgdl);
    for (const id of ids.slice(0, 5)) {
      res = await t.call("DELETE", `${path(agent)}/memories/${id}`);
      expect(res.status).toBe(200);
    }
    const after = await expectExact(agent);
    expect(Number(after.n)).toBe(43);
  });

  it("equal a scan after retention deletes and after concurrent writers", async () => {
    const agent = uniq("lex-retain");
    await write(agent, 30, 200);
    await write(agent, 20, 1);
    await Promise.all([write(agent, 25), write(agent, 25), write(agent, 3), write(agent, 50, 300)]);
    await expectExact(agent);
    const res = await t.call("POST", `${path(agent)}/forget`, { policy: { maxAgeDays: 100 } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { count: number }).count).toBe(80);
    const kept = await expectExact(agent);
    expect(Number(kept.n)).toBe(73);
  });

  it("fold an agent's delta rows as they pile up, still exact", async () => {
    const agent = uniq("lex-fold");
    for (let i = 0; i < 40; i++) await write(agent, 1 + (i % 3));
    // One count row per statement, folded into one whenever more than 32 pile up.
    expect(await deltaRows(agent)).toBeLessThanOrEqual(33);
    expect(await deltaRows(agent)).toBeLessThan(40);
    await expectExact(agent);
  });

  it("leave nothing of an erased agent, and an id written again starts afresh", async () => {
    const agent = uniq("lex-erase");
    await write(agent, 30);
    const other = uniq("lex-other");
    await write(other, 5);
    const before = await expectExact(other);
    let res = await t.call("DELETE", path(agent));
    expect(res.status).toBeLessThan(300);
    const db = t.system.database.db;
    const left = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*) AS n FROM agent_lexicon WHERE agent_id = ${agent}`,
    );
    expect(Number(left[0]?.n)).toBe(0);
    expect(await expectExact(other)).toEqual(before);
    await write(agent, 4);
    expect(Number((await expectExact(agent)).n)).toBe(4);
    res = await t.call("DELETE", path(agent));
    expect(res.status).toBeLessThan(300);
  });
});
