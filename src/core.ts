import type { Db } from "./db/client";
import type { Logger } from "./lib/logger";
import type { Metrics } from "./metrics";
import type { Clock } from "./providers/types";

/**
 * The one core of dependencies, built once in `src/compose.ts`; the services (src/services.ts) are
 * this core plus what the features add, so there is one database handle and one source of time in
 * a running system.
 * `clock` is the only "now" that decisions read: claims, staleness, retention, recency (the
 * database's `now()` is never compared with a time the clock wrote).
 */
export type Core = { db: Db; clock: Clock; logger: Logger; metrics: Metrics };
