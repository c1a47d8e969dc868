import type { MemstreamClient, NewMemory } from "./client.js";

export type CaptureOptions = {
  /** The agent whose stream receives the observations. */
  agentId: string;
  /** Observations per request (default 50, at most the server's 1,000). */
  batchSize?: number;
  /** Longest time an observation waits before it is sent (default 1,000 ms). */
  flushIntervalMs?: number;
  /** Observations kept while the server is unreachable; past it the oldest are dropped (default 10,000). */
  maxQueue?: number;
  /** Characters of an argument or result kept in a description (default 400). */
  maxValueChars?: number;
  /** Called when a batch could not be stored (after the client's retries) or observations were dropped. */
  onError?: (error: unknown, lost: number) => void;
};

/** An AI-SDK-style tool: anything with an `execute(input, ...rest)`. */
export type ExecutableTool = { execute?: (input: never, ...rest: never[]) => unknown };

const DESCRIPTION_CHARS = 8_000;
const MAX_BATCH = 1_000;

/**
 * Records an agent's actions and tool results as observations, without ever making the agent
 * wait: `observe` only queues, and batches go out in the background every `flushIntervalMs` or
 * once `batchSize` are waiting. `flush()` waits for what is queued; `close()` flushes and stops.
 */
export function createCapture(client: Pick<MemstreamClient, "rememberMany">, options: CaptureOptions) {
  const batchSize = Math.min(MAX_BATCH, Math.max(1, options.batchSize ?? 50));
  const maxQueue = options.maxQueue ?? 10_000;
  const valueChars = options.maxValueChars ?? 400;
  const onError = options.onError ?? (() => {});
  const queue: NewMemory[] = [];
  let sending: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const clip = (value: unknown) => {
    const s = typeof value === "string" ? value : safeJson(value);
    return s.length > valueChars ? `${s.slice(0, valueChars)}…` : s;
  };

  // One batch at a time, in order; a failed batch is reported and dropped (the client already retried).
  const sendQueued = (): Promise<void> => {
    sending = sending.then(async () => {
      while (queue.length > 0) {
        const batch = queue.splice(0, batchSize);
        try {
          await client.rememberMany(options.agentId, batch);
        } catch (err) {
          onError(err, batch.length);
        }
      }
    });
    return sending;
  };

  const schedule = () => {
    if (queue.length >= batchSize) return void sendQueued();
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void sendQueued();
    }, options.flushIntervalMs ?? 1_000);
    timer.unref?.();
  };

  /** Queues one observation (timestamped now); returns at once. */
  function observe(description: string, metadata: Record<string, unknown> = {}) {
    queue.push({
      description: description.slice(0, DESCRIPTION_CHARS),
      createdAt: new Date().toISOString(),
      metadata: { source: "capture", ...metadata },
    });
    if (queue.length > maxQueue)
      onError(new Error("capture queue full"), queue.splice(0, queue.length - maxQueue).length);
    schedule();
  }

  /** Wraps a function so each call and its result (or error) becomes an observation; behaviour is unchanged. */
  function wrap<A extends unknown[], R>(name: string, fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const started = Date.now();
      const record = (outcome: string, status: "ok" | "error") =>
        observe(`${name}(${args.map(clip).join(", ")}) ${outcome}`, {
          tool: name,
          status,
          durationMs: Date.now() - started,
        });
      const failed = (err: unknown) => record(`failed: ${clip((err as Error)?.message ?? err)}`, "error");
      try {
        const result = fn(...args);
        if (result instanceof Promise) {
          return result.then(
            (value) => {
              record(`returned ${clip(value)}`, "ok");
              return value;
            },
            (err) => {
              failed(err);
              throw err;
            },
          ) as R;
        }
        record(`returned ${clip(result)}`, "ok");
        return result;
      } catch (err) {
        failed(err);
        throw err;
      }
    };
  }

  /** The same tool with its `execute` wrapped (Vercel AI SDK `tool({...})`, or any `{ execute }` object). */
  function tool<T extends ExecutableTool>(name: string, t: T): T {
    if (!t.execute) return t;
    return { ...t, execute: wrap(name, t.execute as (...args: unknown[]) => unknown) } as T;
  }

  return {
    observe,
    wrap,
    tool,
    /** Observations waiting to be sent. */
    pending: () => queue.length,
    /** Sends everything queued and waits for it. */
    flush: () => sendQueued(),
    /** Flushes and stops the timer; later observations are still sent by `flush`. */
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await sendQueued();
    },
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
