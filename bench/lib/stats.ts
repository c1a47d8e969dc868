import { mkdirSync, writeFileSync } from "node:fs";

/** The q-quantile (0..1) of samples, by nearest rank. */
export function quantile(samples: number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Runs `fn` `warmup` times unmeasured, then `runs` times; returns milliseconds per run. */
export async function timeRuns(
  runs: number,
  warmup: number,
  fn: (i: number) => Promise<unknown>,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Like `timeRuns` for several functions, called in turn for each i, so a ratio between them is
 * measured under the same machine load (the bench's machine is shared).
 */
export async function timeInterleaved(
  runs: number,
  warmup: number,
  fns: ((i: number) => Promise<unknown>)[],
): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn(i);
  const out: number[][] = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [j, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn(i);
      out[j]?.push(performance.now() - t0);
    }
  }
  return out;
}

/** Prints rows as an aligned text table. */
export function printTable(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0] as object);
  const cell = (v: unknown) => (typeof v === "number" ? fmt(v) : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padStart(widths[i] as number)).join("  ");
  console.log(line(cols));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => cell(r[c]))));
}

/** A figure with sensible digits: integers as is, ≥ 100 none, ≥ 10 one, else two. */
export const fmt = (v: number) =>
  Number.isInteger(v) ? String(v) : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);

/** Writes a JSON result file under bench/results/ (git-ignored) and returns its path. */
export function writeResults(name: string, data: unknown): string {
  const dir = new URL("../results/", import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  const path = `${dir}${name}.json`;
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
  return path;
}
