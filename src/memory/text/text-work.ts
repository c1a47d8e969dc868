/**
 * Document conversion and splitting, and token counting of large texts, off the event loop: a
 * TextWork runs them in a small worker-thread pool with a time budget, so what one request sends
 * does not stall the answers to the others (docs/adr/0021-worker-pool.md). The inline form runs
 * the same functions in the caller's thread (the import CLI, where nothing else waits).
 */
import { availableParallelism } from "node:os";
import { DomainError } from "../../lib/errors";
import { PoolBusy, WorkerFailed, WorkerPool, WorkTimeout } from "../../lib/worker-pool/pool";
import type { TokenEncoding } from "../context/tokens";
import { type FitRequest, type FitResult, type SplitRequest, type SplitResult, textTasks } from "./tasks";

export type TextWork = {
  /** The encoding `countTokens` and document splitting count with. */
  encoding: TokenEncoding;
  /** A document's title and sections. */
  splitDocument(request: Omit<SplitRequest, "encoding">): Promise<SplitResult>;
  /** The token count of each text. */
  countTokens(texts: string[]): Promise<number[]>;
  /** A context block's fitting (how many memories fit a token budget) and its tokens. */
  fitContext(request: Omit<FitRequest, "encoding">): Promise<FitResult>;
  /** Starts the threads and loads the encoding, so the first request does not wait for them. */
  warm(): Promise<void>;
  close(): Promise<void>;
};

export type TextWorkOptions = {
  encoding: TokenEncoding;
  /** Worker threads; 0 runs everything inline. */
  threads: number;
  /** Budget of one step in a thread. */
  timeoutMs: number;
};

/** Time the threads may take to start and load the tokenizer, once. */
const WARM_MS = 120_000;

/** One thread per core but the one the API's event loop needs, at least one, at most four. */
export const defaultTextThreads = (): number => Math.max(1, Math.min(4, availableParallelism() - 1));

/** A TextWork in `threads` worker threads (or inline with 0). */
export function createTextWork(opts: TextWorkOptions): TextWork {
  const { encoding } = opts;
  if (opts.threads === 0) {
    return {
      encoding,
      splitDocument: async (request) => textTasks.split({ ...request, encoding }),
      countTokens: async (texts) => textTasks.count({ texts, encoding }),
      fitContext: async (request) => textTasks.fit({ ...request, encoding }),
      warm: async () => void textTasks.count({ texts: ["warm"], encoding }),
      close: async () => {},
    };
  }
  const pool = new WorkerPool<typeof textTasks>({
    name: "text work",
    entry: "src/memory/text/text.worker.ts",
    size: opts.threads,
    timeoutMs: opts.timeoutMs,
    maxQueue: 64,
    // A 2 MB document's sections, counters and DOM fit easily; a runaway step ends its thread only.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  // Every thread loads the tokenizer's ranks (seconds on a busy machine) before its first task,
  // outside any task's budget: otherwise the first text retrieve after start-up paid for it and,
  // under load, ran past the budget. Once per pool; a failed warm-up is tried again next time.
  let warmed: Promise<void> | null = null;
  const warm = () => {
    warmed ??= pool
      .warm()
      .then(() =>
        Promise.all(
          Array.from({ length: opts.threads }, () =>
            pool.run("count", { texts: ["warm"], encoding }, { timeoutMs: WARM_MS }),
          ),
        ),
      )
      .then(() => {})
      .catch((err: unknown) => {
        warmed = null;
        throw err;
      });
    return warmed;
  };
  const run = <T>(what: string, work: () => Promise<T>) =>
    warm()
      .then(work)
      .catch((err: unknown) => Promise.reject(asDomain(err, what)));
  return {
    encoding,
    splitDocument: (request) => run("the document", () => pool.run("split", { ...request, encoding })),
    countTokens: (texts) => run("the text", () => pool.run("count", { texts, encoding })),
    fitContext: (request) => run("the context block", () => pool.run("fit", { ...request, encoding })),
    warm,
    close: () => pool.close(),
  };
}

/** The pool's failures as the API's errors, naming the bound that was hit. */
function asDomain(err: unknown, what: string): unknown {
  if (err instanceof WorkTimeout)
    return new DomainError(
      "payload_too_large",
      `${what} took over ${err.ms} ms to process, the time budget of one request's text work; send it in smaller parts`,
      {
        limit: "workMs",
        value: err.ms,
      },
    );
  if (err instanceof WorkerFailed && err.reason === "memory")
    return new DomainError(
      "payload_too_large",
      `${what} needed more memory than one request's text work may use; send it in smaller parts`,
      {
        limit: "workMemory",
      },
    );
  if (err instanceof PoolBusy)
    return new DomainError("unavailable", "the service is busy with other documents; retry shortly");
  return err;
}
