import type { Logger } from "./logger";

/**
 * Process lifecycle for the entry points (`server.ts`, `worker.ts`): a bounded graceful shutdown
 * and a crash on anything unhandled. A process that hangs while draining (a job that never
 * returns, a request that never ends) is worse than one that exits: the orchestrator would kill it
 * without a word, so after `deadlineMs` it exits 1 with a log line saying why. Unhandled rejections
 * and exceptions leave the process in an unknown state: log and exit 1, and let the supervisor
 * restart it (jobs in hand are retried; the database is the source of truth).
 */
export function handleProcessLifecycle(opts: {
  logger: Logger;
  /** From SIGTERM/SIGINT to a forced exit. */
  deadlineMs: number;
  /** Stops taking work, finishes or releases what is in hand, closes connections. */
  stop(): Promise<void>;
}): void {
  const { logger } = opts;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn("second signal while shutting down; exiting now", { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info("shutting down", { signal, deadlineMs: opts.deadlineMs });
    const deadline = setTimeout(() => {
      logger.error("shutdown deadline passed; exiting with work still in hand", {
        deadlineMs: opts.deadlineMs,
      });
      process.exit(1);
    }, opts.deadlineMs);
    opts
      .stop()
      .then(() => {
        clearTimeout(deadline);
        logger.info("shut down cleanly");
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error("shutdown failed", {
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
        process.exit(1);
      });
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("unhandledRejection", (reason) => {
    logger.error("unhandled promise rejection; exiting", {
      error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason),
    });
    process.exit(1);
  });
  process.on("uncaughtException", (err) => {
    logger.error("uncaught exception; exiting", { error: err.stack ?? err.message });
    process.exit(1);
  });
}
