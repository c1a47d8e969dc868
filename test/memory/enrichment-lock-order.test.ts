import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemories } from "../../src/memory/create-memories";
import { claimRows } from "../../src/memory/enrichment/claim";
import type { MemoryRef } from "../../src/memory/enrichment/fields";
import { storeScores } from "../../src/memory/enrichment/store";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem, without } from "../support/system";

// Embed and score jobs claim (and store) the same rows; each statement used to lock them in its
// join's order, so two of them over one chunk in different orders deadlocked (40P01, retried by
// the queue). They now lock in one order, (agent, id COLLATE "C") — the order of the touch, the
// erase and retention (docs/adr/0027) — so concurrent claims and stores never deadlock.
let t: TestSystem;
const agents = [uniq("lock-order-a"), uniq("lock-order-b")];
beforeAll(async () => {
  t = await startTestSystem({ announce: without("memories.pending") });
});
afterAll(async () => {
  for (const a of agents) await t?.call("DELETE", `/v1/agents/${a}`);
  await t?.close();
});

/** A seeded shuffle (mulberry32), so a failing order can be replayed. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let r = Math.imul(s ^ (s >>> 15), 1 | s);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("enrichment claims and stores lock rows in one order", () => {
  it("concurrent embed and score claims (and score stores) over shuffled chunks of two agents never deadlock", async () => {
    const refs: MemoryRef[] = [];
    for (const agentId of agents) {
      const made = await createMemories(
        t.system.services,
        agentId,
        Array.from({ length: 30 }, (_, i) => ({ description: `lock order ${i}` })),
      );
      refs.push(...made.map((m) => ({ memoryId: m.id, agentId, revision: 1 })));
    }
    const deps = { db: t.system.services.db, clock: t.system.services.clock };
    const errors: { code?: string; message: string }[] = [];
    const run = (p: Promise<unknown>) =>
      p.catch((e: { code?: string; message: string }) => {
        errors.push({ code: e.code ?? (e as { cause?: { code?: string } }).cause?.code, message: e.message });
      });
    for (let round = 0; round < 12; round++) {
      await Promise.all([
        // The same owner reclaims its rows every round, so every statement locks every row.
        run(claimRows(deps, "embedding", shuffled(refs, round * 4 + 1), "embed-job", 60_000)),
        run(claimRows(deps, "importance", shuffled(refs, round * 4 + 2), "score-job", 60_000)),
        run(claimRows(deps, "embedding", shuffled(refs, round * 4 + 3), "embed-job", 60_000)),
        // A score store at a revision no row has: it locks its rows, and updates none.
        run(
          storeScores(
            t.system.services.db,
            "test",
            shuffled(refs, round * 4 + 4)
              .slice(0, 5)
              .map((r) => ({ ...r, revision: 99, score: 3 })),
          ),
        ),
        run(claimRows(deps, "importance", [...refs].reverse(), "score-job", 60_000)),
      ]);
    }
    expect(errors).toEqual([]);
  });
});
