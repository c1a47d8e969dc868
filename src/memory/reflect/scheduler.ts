/**
 * The in-process `ReflectionScheduler`: runs the threshold check in the background of the process
 * that stored the memories, at most one per agent at a time. Main swaps this for a job per agent
 * (deterministic job id) once the job system exists; cross-process exclusion is the run row's.
 */
import type { Logger } from "../../lib/logger";
import type { ReflectionScheduler } from "../deps";

export type InProcessReflectionScheduler = ReflectionScheduler & {
  /** Resolves when no check is running or queued (tests; graceful shutdown). */
  idle(): Promise<void>;
};

/**
 * `check(agentId)` is called in the background after `importanceAdded(agentId)`. While one check of
 * an agent runs, further announcements for it collapse into a single re-check afterwards, so
 * importance that arrived during a run is never missed and never starts a second run.
 */
export function createInProcessReflectionScheduler(
  check: (agentId: string) => Promise<unknown>,
  logger: Logger,
): InProcessReflectionScheduler {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();

  const start = (agentId: string): void => {
    const p = (async () => {
      do {
        again.delete(agentId);
        try {
          await check(agentId);
        } catch (err) {
          logger.error("threshold reflection failed", { agentId, error: String(err) });
        }
      } while (again.has(agentId));
      // Same tick as the last `again` check: an announcement after this starts a fresh check.
      running.delete(agentId);
    })();
    running.set(agentId, p);
  };

  return {
    async importanceAdded(agentId) {
      if (running.has(agentId)) again.add(agentId);
      else start(agentId);
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
