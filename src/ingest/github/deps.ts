import type { Core } from "../../core";
import type { MemoryDeps } from "../../memory/deps";
import type { RouteRule } from "./route-agents";

/**
 * What GitHub ingestion needs: the memory deps (built from the core), the core's logger and
 * metrics, the webhook secrets and routing rules, and the seams through which accepted deliveries
 * and opened imports are enqueued.
 */
export type IngestDeps = MemoryDeps &
  Pick<Core, "logger" | "metrics"> & {
    /** `GITHUB_WEBHOOK_SECRET`: empty, the webhook accepts nothing. */
    webhookSecrets: string[];
    routes: RouteRule[];
    /** Where accepted deliveries go to be processed (a `github.deliver` job). */
    deliveries: DeliveryProcessor;
    /** Where opened repository imports go to be run (a `github.import` job). */
    imports: ImportQueue;
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
