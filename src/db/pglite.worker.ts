import { createServer } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { analyzeWhenGrown, protocolAnalyzer } from "./pglite-analyze";
import { ExchangeScheduler } from "./pglite-exchanges";

/**
 * Embedded PGlite in its own thread (docs/adr/0031): the database's work (WebAssembly, seconds for a
 * large batch) never holds the API's event loop. It serves the Postgres wire protocol on a Unix
 * socket, and the API reaches it with postgres-js as it reaches a PostgreSQL server.
 */
export type PgliteThreadData = {
  module: string;
  dataDir: string;
  socketPath: string;
  migrationsFolder: string;
  maxConnections: number;
};
export type PgliteThreadRequest = { id: number; type: "migrate" | "close" };
export type PgliteThreadReply =
  | { type: "ready" }
  | { type: "failed"; error: string }
  | { id: number; type: "done" }
  | { id: number; type: "error"; error: string };

const data = workerData as PgliteThreadData;
const port = parentPort;
if (!port) throw new Error("pglite.worker.ts runs as a worker thread");
const send = (m: PgliteThreadReply) => port.postMessage(m);

try {
  const client = await PGlite.create(data.dataDir, { extensions: { vector, btree_gin } });
  // A new 16 MB WAL segment is not written full of zeros first: the statement that crossed into
  // it waited for that (~260 ms in memory, where the emulated file grows by copies), and
  // preallocation buys nothing here (fsync is off in PGlite). One backend: the setting is for all.
  await client.exec("SET wal_init_zero = off");
  // PGlite has no autovacuum: tables are analyzed as they grow (pglite-analyze.ts), after the
  // migrations' statements and after writes that come over the socket.
  const analyze = analyzeWhenGrown(client, () => {});
  // pglite-socket's handlers (wire framing, startup) over our scheduler of the one backend.
  const scheduler = new ExchangeScheduler(
    client,
    protocolAnalyzer(client, () => {}),
  );
  const server = await serve(data.socketPath, data.maxConnections, scheduler);
  port.on("message", (m: PgliteThreadRequest) => {
    const run =
      m.type === "migrate"
        ? migrate(drizzle(client), { migrationsFolder: data.migrationsFolder })
        : (async () => {
            await server.stop();
            await scheduler.settled();
            await analyze.settled();
            await client.close();
          })();
    run.then(
      () => send({ id: m.id, type: "done" }),
      (err: unknown) => send({ id: m.id, type: "error", error: String((err as Error)?.stack ?? err) }),
    );
  });
  send({ type: "ready" });
} catch (err) {
  send({ type: "failed", error: String((err as Error)?.stack ?? err) });
}

/** A Unix-socket server whose connections share `scheduler` (at most `max` at once). */
async function serve(path: string, max: number, scheduler: ExchangeScheduler) {
  const handlers = new Set<PGLiteSocketHandler>();
  const server = createServer((socket) => {
    if (handlers.size >= max) return socket.destroy();
    // The handler's type names pglite-socket's own queue; ours keeps its interface (pglite-exchanges.ts).
    const handler = new PGLiteSocketHandler({ queryQueue: scheduler as never, closeOnDetach: true });
    handlers.add(handler);
    for (const event of ["close", "error"]) handler.addEventListener(event, () => handlers.delete(handler));
    handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, resolve);
  });
  return {
    async stop() {
      await Promise.all([...handlers].map((h) => h.detach(true)));
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
