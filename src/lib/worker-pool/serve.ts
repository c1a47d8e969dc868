import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { DomainError } from "../errors";
import {
  POOL_WORKER,
  type PoolWorkerData,
  type ReplyMessage,
  type SerializedError,
  type TaskMessage,
} from "./protocol";
import { setUpThread } from "./thread-setup.mjs";

/** Functions a worker runs by name: one input (structured-cloneable), one output (or a promise of it). */
export type Tasks = Record<string, (input: never) => unknown>;

/**
 * The worker side of a WorkerPool: answers each task message with the task's output or its
 * error. Called at the top level of a `*.worker.ts` module that exports its `tasks`; imported on
 * the main thread (or in a thread the pool did not start) it does nothing.
 */
export function serveTasks(tasks: Tasks): void {
  const data = workerData as Partial<PoolWorkerData> | null;
  if (isMainThread || !parentPort || data?.kind !== POOL_WORKER) return;
  const port = parentPort;
  // Before the first task, so whatever threads a task's runtime starts inherit the priority.
  const setup = data.setup ? setUpThread(data.setup) : null;
  const reply = (m: ReplyMessage) => port.postMessage(m);
  port.on("message", async ({ id, task, input }: TaskMessage) => {
    const run = tasks[task];
    try {
      if (!run) throw new Error(`no task ${task} in this worker`);
      reply({ id, ok: true, output: await (run as (i: unknown) => unknown)(input) });
    } catch (err) {
      reply({ id, ok: false, error: serializeError(err) });
    }
  });
  reply(setup ? { ready: true, setup } : { ready: true });
}

function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: "Error", message: String(err) };
  const out: SerializedError = { name: err.name, message: err.message, stack: err.stack };
  if (err instanceof DomainError) {
    out.code = err.code;
    if (err.details) out.details = err.details;
  }
  return out;
}
