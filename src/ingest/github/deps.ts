import type { Core } from "../../core";
import type { MemoryDeps } from "../../memory/deps";
import type { RouteRule } from "./route-agents";

/**
 * What GitHub ingestion needs: the memory deps (built from the core; accepted deliveries and
 * opened imports are announced through their `announce`), the core's logger and metrics, the
 * webhook secrets and routing rules.
 */
export type IngestDeps = MemoryDeps &
  Pick<Core, "logger" | "metrics"> & {
    /** `GITHUB_WEBHOOK_SECRET`: empty, the webhook accepts nothing. */
    webhookSecrets: string[];
    routes: RouteRule[];
  };
