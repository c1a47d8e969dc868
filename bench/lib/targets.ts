import { readFileSync } from "node:fs";
import { printTable } from "./stats";

/** One of the default's speed targets with a run's figure (bench/default-speed.ts). */
export type Target = { target: string; figure: string; goal: string; verdict: string };

/** The default's speed targets with a run's figures, one line each. */
export function printTargets(rows: Target[]) {
  console.log("\nthe default's speed targets (docs/performance.md)");
  printTable(rows);
}

/** The targets bench/default-speed.ts wrote last (bench/results/default-speed.json), or none. */
export function lastTargets(): Target[] {
  try {
    const path = new URL("../results/default-speed.json", import.meta.url).pathname;
    return (JSON.parse(readFileSync(path, "utf8")) as { targets?: Target[] }).targets ?? [];
  } catch {
    return [];
  }
}
