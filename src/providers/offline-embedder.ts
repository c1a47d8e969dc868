import { availableParallelism } from "node:os";
import type { Logger } from "../lib/logger";
import { WorkerPool } from "../lib/worker-pool/pool";
import type { ThreadSetup } from "../lib/worker-pool/thread-setup.mjs";
import { chunk, guardEmpty } from "./batching.js";
import { offlineModelTasks } from "./offline-model.js";
import type { Embedder } from "./types.js";

/** Texts per forward pass; larger batches grow tensor memory with little gain in throughput. */
const OFFLINE_MAX_BATCH = 64;

/**
 * Calls of at most this many texts (a query; the few pending memories a retrieve embeds inline)
 * run in the interactive threads, larger ones (enrichment and importance batches) in the batch
 * threads: a query never queues behind a backlog's batches, each a second or more of CPU.
 */
const INTERACTIVE_MAX = 8;

export type OfflineEmbedderOptions = {
  /**
   * Worker threads for queries (MEMSTREAM_EMBED_THREADS); batches get one fewer (at least one),
   * so a backlog leaves a core to the API. 0 runs the model on the caller's thread.
   */
  threads: number;
  /** Run-time budget of one forward pass in a thread; past it the thread is replaced and the call fails. */
  timeoutMs?: number;
  /**
   * Nice value of the batch threads (MEMSTREAM_EMBED_BATCH_NICE; Linux), 0 = the process's own:
   * the API's thread and the query threads then win the CPU over a backlog's batches. Default
   * DEFAULT_EMBED_BATCH_NICE.
   */
  batchNice?: number;
  /** Told once, at debug, when the batch threads cannot lower their priority (not Linux). */
  logger?: Pick<Logger, "debug">;
};

/**
 * On a loaded machine the process's other threads are served before a backlog's batches, yet the
 * batches still get a share: by the kernel's weights (1,024 at nice 0, 110 at 10, 15 at 19) a
 * batch thread beside one busy thread keeps ~10 % of a core at 10 and ~1.5 % at 19, where a host
 * that is never idle starved the backlog (docs/adr/0024).
 */
export const DEFAULT_EMBED_BATCH_NICE = 10;

/** One thread per core, at most four: queries on a loaded service use both cores. */
export const defaultEmbedThreads = (): number => Math.max(1, Math.min(4, availableParallelism()));

/**
 * The offline model as an Embedder. With threads, every forward pass runs in a worker thread
 * (src/lib/worker-pool, docs/adr/0021-worker-pool.md): the model takes ~30 ms a sentence and
 * seconds a batch, which on the API's event loop delayed every request behind an enrichment
 * backlog by up to a minute. Each thread loads its own copy of the model on first use.
 */
export async function createOfflineEmbedder(
  opts: OfflineEmbedderOptions = { threads: 0 },
): Promise<Embedder & { warm(): Promise<void>; close(): Promise<void> }> {
  const base = { modelId: "use-lite-512", dimensions: 512, maxBatchSize: OFFLINE_MAX_BATCH };
  if (opts.threads === 0) {
    return {
      ...base,
      async embed(texts) {
        if (texts.length === 0) return [];
        const out: number[][] = [];
        // Sequential on purpose: the model runs on this thread, so parallel batches would only contend.
        for (const batch of chunk(guardEmpty(texts), OFFLINE_MAX_BATCH))
          out.push(...(await offlineModelTasks.embed({ texts: batch })));
        return out;
      },
      warm: async () => void (await offlineModelTasks.embed({ texts: ["warm"] })),
      close: async () => {},
    };
  }
  const pool = (name: string, size: number, thread: ThreadSetup) =>
    new WorkerPool<typeof offlineModelTasks>({
      name,
      entry: "src/providers/offline-embedder.worker.ts",
      size,
      timeoutMs: opts.timeoutMs ?? 120_000,
      // Every waiting call is a promise a job or a request holds: refusing would only fail them.
      maxQueue: 100_000,
      thread,
      logger: opts.logger,
    });
  // Query threads keep the process's priority: a retrieve waits for them.
  const interactive = pool("offline embedder (queries)", opts.threads, { name: "embed-query" });
  // Batch threads yield the CPU to the rest of the process (docs/adr/0024-lexical-statistics.md):
  // the enrichment backlog is the one piece of work here that no request waits for.
  const batches = pool("offline embedder (batches)", Math.max(1, opts.threads - 1), {
    name: "embed-batch",
    nice: opts.batchNice ?? DEFAULT_EMBED_BATCH_NICE,
  });
  return {
    ...base,
    async embed(texts) {
      if (texts.length === 0) return [];
      const to = texts.length <= INTERACTIVE_MAX ? interactive : batches;
      const parts = await Promise.all(
        chunk(guardEmpty(texts), OFFLINE_MAX_BATCH).map((batch) => to.run("embed", { texts: batch })),
      );
      return parts.flat();
    },
    async warm() {
      // Every query thread started, each loading its model; batch threads start with the first backlog.
      await interactive.warm();
      await Promise.all(
        Array.from({ length: opts.threads }, () => interactive.run("embed", { texts: ["warm"] })),
      );
    },
    async close() {
      await Promise.all([interactive.close(), batches.close()]);
    },
  };
}
