import type { ThreadSetup } from "./thread-setup.mjs";

/** Messages between a pool and its workers (pool.ts, serve.ts). */

/** Marker in `workerData`: the thread was started by a WorkerPool and should serve its tasks. */
export const POOL_WORKER = "memstream-worker-pool";

/** The `workerData` a pool gives its threads. */
export type PoolWorkerData = { kind: typeof POOL_WORKER; module: string; setup?: ThreadSetup };

/** Pool → worker: run `task` on `input`. */
export type TaskMessage = { id: number; task: string; input: unknown };

/** An error crossing the thread boundary; `code`/`details` are a DomainError's (src/lib/errors.ts). */
export type SerializedError = {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  details?: Record<string, unknown>;
};

/** Worker → pool: it is ready for tasks (`setup`: why its ThreadSetup failed), or a task's result. */
export type ReplyMessage =
  | { ready: true; setup?: string }
  | { id: number; ok: true; output: unknown }
  | { id: number; ok: false; error: SerializedError };
