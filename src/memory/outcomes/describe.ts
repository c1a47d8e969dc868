import type { OutcomeFields } from "../lessons/types";

/** "1.5 s", "2 min 5 s", "3 h 20 min": a duration as a person would say it. */
export function humanDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${Math.round(s % 60)} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/**
 * The outcome's description: one natural-language sentence built from its fields, so retrieval
 * (embedding and lexical) finds it by the task, the strategy and the error like any memory, e.g.
 * `Failed task (deploy) "Deploy billing to staging" using in-place restart: port 8080 in use.`
 */
export function describeOutcome(o: OutcomeFields): string {
  const type = o.taskType ? ` (${o.taskType})` : "";
  const using = o.strategy ? ` using ${o.strategy}` : "";
  const took = o.durationMs === null ? "" : ` in ${humanDuration(o.durationMs)}`;
  const head = `${o.success ? "Succeeded at" : "Failed"} task${type} "${o.task}"${using}${took}`;
  if (o.error) return `${head}: ${o.error}`;
  return `${head}.`;
}
