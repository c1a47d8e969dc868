/**
 * Large request bodies parsed and validated off the event loop (docs/adr/0037): a body of 15 MB
 * held the API's loop for hundreds of milliseconds in `JSON.parse`, the storable-text checks and
 * zod, cold. A BodyWork runs bodyTasks in one worker thread with a time budget (the pool of
 * docs/adr/0021), or inline when work threads are off.
 */
import type { z } from "@hono/zod-openapi";
import { ZodError } from "zod";
import { DomainError } from "../lib/errors";
import { PoolBusy, WorkerFailed, WorkerPool, WorkTimeout } from "../lib/worker-pool/pool";
import { bodyTasks, type ParsedBody } from "./body-tasks";

/** Bodies from this size go to the thread; below it parsing costs the loop a few ms at most. */
export const BODY_THREAD_BYTES = 1024 * 1024;

export type BodyWork = {
  /** A `POST /memories` body, parsed and validated; the bytes are the callee's (transferred). */
  memories(bytes: Uint8Array): Promise<ParsedBody>;
  /** Starts the thread, so the first large body does not wait for it. */
  warm(): Promise<void>;
  close(): Promise<void>;
};

/** A BodyWork in one thread (`threads` > 0) or inline (0: tests, the import CLI's settings). */
export function createBodyWork(opts: { threads: number; timeoutMs: number }): BodyWork {
  if (opts.threads === 0)
    return {
      memories: (bytes) => bodyTasks.memories(bytes),
      warm: async () => {},
      close: async () => {},
    };
  const pool = new WorkerPool<typeof bodyTasks>({
    name: "body work",
    entry: "src/api/body.worker.ts",
    // One: large bodies are rare, and each is one thread's work; more wait (bounded) in its queue.
    size: 1,
    timeoutMs: opts.timeoutMs,
    maxQueue: 8,
    // A 32 MiB body parses into ~100-200 MB of objects; a larger need ends the thread only.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  return {
    memories: (bytes) =>
      pool
        .run("memories", bytes, {
          // Its own buffer moves to the thread; a view of a shared one is copied.
          transfer:
            bytes.buffer instanceof ArrayBuffer &&
            bytes.byteOffset === 0 &&
            bytes.byteLength === bytes.buffer.byteLength
              ? [bytes.buffer]
              : [],
        })
        .catch((err: unknown) => Promise.reject(asDomain(err))),
    warm: () => pool.warm(),
    close: () => pool.close(),
  };
}

/** What a BodyWork found, or why it could not (a time or memory bound, a full queue). */
type Verdict = ParsedBody | { kind: "failed"; error: unknown };

/**
 * Verdicts by the value `c.req.json()` then gives the route's validator: the valid body itself,
 * or a token standing for an invalid body or a failure (acceptJudged answers with either).
 */
const verdicts = new WeakMap<object, Verdict>();

/**
 * `bytes` judged by `bodies`, as the value for the route's validator; null when not JSON (the
 * validator's own 400). A failure travels as a token too: `c.req.json()` may not throw it, since
 * the validator words anything thrown there as malformed JSON.
 */
export async function judgedValue(bodies: BodyWork, bytes: Uint8Array): Promise<object | null> {
  let verdict: Verdict;
  try {
    verdict = await bodies.memories(bytes);
  } catch (error) {
    verdict = { kind: "failed", error };
  }
  if (verdict.kind === "malformed") return null;
  const value = verdict.kind === "valid" ? verdict.data : {};
  verdicts.set(value, verdict);
  return value;
}

/**
 * `schema`, answering a value a BodyWork judged with that verdict instead of walking it again on
 * the event loop: the route's validator (@hono/zod-validator) calls `safeParseAsync`, and the
 * route's hook words the issues as for any body. Any other value is parsed as before.
 */
export function acceptJudged<S extends z.ZodType>(schema: S): S {
  const parse = schema.safeParseAsync.bind(schema);
  const judged: typeof parse = (data, params) => {
    const verdict = typeof data === "object" && data !== null ? verdicts.get(data) : undefined;
    if (verdict?.kind === "valid")
      return Promise.resolve({ success: true, data: verdict.data as z.output<S> });
    if (verdict?.kind === "invalid")
      return Promise.resolve({
        success: false,
        error: new ZodError(verdict.issues) as z.ZodError<z.output<S>>,
      });
    // Thrown from the validator, it reaches the app's error handler (413, 503) as it is.
    if (verdict?.kind === "failed") return Promise.reject(verdict.error);
    return parse(data, params);
  };
  return Object.assign(schema, { safeParseAsync: judged });
}

/** The pool's failures as the API's errors, naming the bound that was hit. */
function asDomain(err: unknown): unknown {
  if (err instanceof WorkTimeout)
    return new DomainError(
      "payload_too_large",
      `the request body took over ${err.ms} ms to parse, the time budget of one request's work; send it in smaller batches`,
      { limit: "workMs", value: err.ms },
    );
  if (err instanceof WorkerFailed && err.reason === "memory")
    return new DomainError(
      "payload_too_large",
      "the request body needed more memory to parse than one request's work may use; send it in smaller batches",
      { limit: "workMemory" },
    );
  if (err instanceof PoolBusy)
    return new DomainError("unavailable", "the service is busy parsing other large bodies; retry shortly");
  return err;
}
