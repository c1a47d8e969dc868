import type { ImportQueue, IngestDeps } from "../deps";
import { type GithubAccess, runImport } from "./run-import";

/** An `ImportQueue` that also lets shutdown (and tests) wait for runs in flight. */
export type InProcessImportQueue = ImportQueue & { drain(): Promise<void> };

/**
 * Runs imports in this process after the request has been answered, one promise per import, the
 * way GitHub deliveries are run here until the job catalog runs both (`github.import`). A failed
 * run is left `failed` on its row with the reason; the same POST (or the command) resumes it.
 */
export function createInProcessImportQueue(deps: IngestDeps, github: GithubAccess): InProcessImportQueue {
  const inFlight = new Set<Promise<void>>();
  return {
    async enqueue(importId) {
      const run = runImport(deps, importId, { github })
        .then((done) => deps.logger.info("GitHub import finished", { importId, ...done.counts }))
        .catch((error: unknown) =>
          deps.logger.warn("GitHub import failed; POST it again to resume", {
            importId,
            error: String(error),
          }),
        );
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    },
    async drain() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
