import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { workerEntry } from "../lib/worker-pool/entry";
import type { PgliteThreadData, PgliteThreadReply, PgliteThreadRequest } from "./pglite.worker";

/** The embedded database's thread: where its socket is, and its two commands. */
export type PgliteThread = {
  /** Unix socket of its Postgres wire protocol. */
  socketPath: string;
  migrate(): Promise<void>;
  /** Stops serving, settles the last statistics check, closes PGlite, ends the thread. */
  close(): Promise<void>;
};

/**
 * Starts PGlite on `dataDir` in a worker thread (pglite.worker.ts) serving `maxConnections`
 * connections on a Unix socket in a private temporary folder; resolves once it accepts them.
 */
export async function startPgliteThread(opts: {
  dataDir: string;
  migrationsFolder: string;
  maxConnections: number;
}): Promise<PgliteThread> {
  const socketDir = mkdtempSync(join(tmpdir(), "memstream-pglite-"));
  const socketPath = join(socketDir, ".s.PGSQL.5432");
  const { file, module } = workerEntry("src/db/pglite.worker.ts");
  const data: PgliteThreadData = { module, socketPath, ...opts };
  const worker = new Worker(file, { workerData: data });
  let next = 0;
  const waiting = new Map<number, { resolve(): void; reject(e: Error): void }>();
  let ended: Error | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on("message", (m: PgliteThreadReply) => {
      if (m.type === "ready") return resolve();
      if (m.type === "failed") return reject(new Error(`embedded database did not open: ${m.error}`));
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.type === "done") w?.resolve();
      else w?.reject(new Error(m.error));
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      ended = new Error(`the embedded database thread exited (code ${code})`);
      reject(ended);
      for (const w of waiting.values()) w.reject(ended);
      waiting.clear();
      rmSync(socketDir, { recursive: true, force: true });
    });
  });
  const ask = (type: PgliteThreadRequest["type"]) =>
    new Promise<void>((resolve, reject) => {
      if (ended) return reject(ended);
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, type } satisfies PgliteThreadRequest);
    });
  try {
    await ready;
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  return {
    socketPath,
    migrate: () => ask("migrate"),
    async close() {
      await ask("close").catch(() => {});
      await worker.terminate();
    },
  };
}
