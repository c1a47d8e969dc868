import type { Logger } from "../../lib/logger";
import type { MemoryDeps } from "../../memory/deps";
import type { RouteRule } from "./route-agents";

/** What processing a delivery needs: the memory domain, the routing rules, a logger. */
export type IngestDeps = {
  memory: MemoryDeps;
  routes: RouteRule[];
  logger: Logger;
};

/**
 * The seam between accepting a delivery and processing it: the job system implements it by
 * enqueuing a `github.deliver` job (src/jobs/notifiers.ts). The stored delivery row is the source
 * of truth; `enqueue` only makes processing start. It never throws: a delivery that was stored has
 * been accepted, and one whose enqueue is lost is found by the sweep (`unfinishedDeliveries`).
 */
export interface DeliveryProcessor {
  enqueue(deliveryId: string): Promise<void>;
}

/**
 * The seam between opening a repository import (`openImport`) and running it (`runImport`): the
 * job system implements it by enqueuing a `github.import` job (src/jobs/notifiers.ts). The import
 * row is the source of truth (status, phase, next page); `enqueue` only makes the run start and
 * never throws: an import whose enqueue is lost is found by the sweep (`unfinishedImports`).
 */
export interface ImportQueue {
  /** `agentId`: the agent that asked, one of the import's agents. */
  enqueue(ref: { importId: string; agentId: string }): Promise<void>;
}
