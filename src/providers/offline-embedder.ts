import { availableParallelism } from "node:os";
import { WorkerPool } from "../lib/worker-pool/pool";
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
};

/** One thread per core, at most four: queries on a loaded service use both cores (issue 27). */
export const defaultEmbedThreads = (): number => Math.max(1, Math.min(4, availableParallelism()));

/**
 * The offline model as an Embedder. With threads, every forward pass runs in a worker thread
 * (src/lib/worker-pool, docs/adr/0021-worker-pool.md): the model takes ~30 ms a sentence and
 * seconds a batch, which on the API's event loop delayed every request behind an enrichment
 * backlog by up to a minute (issue 27). Each thread loads its own copy of the model on first use.
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
  const pool = (name: string, size: number) =>
    new WorkerPool<typeof offlineModelTasks>({
      name,
      entry: "src/providers/offline-embedder.worker.ts",
      size,
      timeoutMs: opts.timeoutMs ?? 120_000,
      // Every waiting call is a promise a job or a request holds: refusing would only fail them.
      maxQueue: 100_000,
    });
  const interactive = pool("offline embedder (queries)", opts.threads);
  const batches = pool("offline embedder (batches)", Math.max(1, opts.threads - 1));
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
