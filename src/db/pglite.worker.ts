import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { analyzeAfterProtocolWrites, analyzeWhenGrown } from "./pglite-analyze";

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
  // PGlite has no autovacuum: tables are analyzed as they grow (pglite-analyze.ts), after the
  // migrations' statements and after writes that come over the socket.
  const analyze = analyzeWhenGrown(client, () => {});
  analyzeAfterProtocolWrites(client, () => {});
  const server = new PGLiteSocketServer({
    db: client,
    path: data.socketPath,
    maxConnections: data.maxConnections,
  });
  await server.start();
  port.on("message", (m: PgliteThreadRequest) => {
    const run =
      m.type === "migrate"
        ? migrate(drizzle(client), { migrationsFolder: data.migrationsFolder })
        : (async () => {
            await server.stop();
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
