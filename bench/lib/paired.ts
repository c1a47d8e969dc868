import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { retrieve } from "../../src/memory/retrieve/retrieve";
import { quantile } from "./stats";

/** Another checkout's retrieve() (e.g. `git worktree add ../base <commit>`, node_modules linked). */
export async function retrieveOf(checkout: string): Promise<typeof retrieve> {
  const mod = (await import(pathToFileURL(resolve(checkout, "src/memory/retrieve/retrieve.ts")).href)) as {
    retrieve: typeof retrieve;
  };
  return mod.retrieve;
}

export type Paired = { base: number[]; new: number[]; ratios: number[]; differ: number };

/**
 * `run(side, i)` for items 0…n−1, base and new back to back in alternating order (ABBA), `rounds`
 * times; the first round warms up and is not timed. `run` returns what it ranked, as a string:
 * pairs whose strings differ are counted. On a shared machine separate runs differ by ±5–20 %,
 * pairs far less, so changes are judged by the median of the per-pair ratios new/base.
 */
export async function pairedRuns(
  n: number,
  run: (side: "base" | "new", i: number) => Promise<string>,
  rounds = 3,
): Promise<Paired> {
  const out: Paired = { base: [], new: [], ratios: [], differ: 0 };
  for (let round = 0; round < rounds; round++)
    for (let i = 0; i < n; i++) {
      const t = { base: 0, new: 0 };
      const ranked = { base: "", new: "" };
      for (const side of (round + i) % 2 ? (["base", "new"] as const) : (["new", "base"] as const)) {
        const t0 = performance.now();
        ranked[side] = await run(side, i);
        t[side] = performance.now() - t0;
      }
      if (round === 0) continue;
      if (ranked.base !== ranked.new) out.differ++;
      out.base.push(t.base);
      out.new.push(t.new);
      out.ratios.push(t.new / t.base);
    }
  return out;
}

/** p50 per side, the median pair ratio and its quartiles. */
export function pairedSummary(p: Paired) {
  return {
    pairs: p.ratios.length,
    "base p50 ms": quantile(p.base, 0.5).toFixed(1),
    "new p50 ms": quantile(p.new, 0.5).toFixed(1),
    "new/base, median pair": quantile(p.ratios, 0.5).toFixed(3),
    "q25–q75": `${quantile(p.ratios, 0.25).toFixed(3)}–${quantile(p.ratios, 0.75).toFixed(3)}`,
    "rankings that differ": p.differ,
  };
}
