import { createWriteStream } from "node:fs";
import type { Io } from "./io";
import { write } from "./io";

/** Writes to a file or stdout, waiting when it is full (a stream never piles up in memory). */
export function output(io: Io, path: string | undefined) {
  const out = path ? createWriteStream(path) : io.stdout;
  return {
    write: (chunk: string) => write(out, chunk),
    async close() {
      if (out !== io.stdout)
        await new Promise<void>((resolve, reject) =>
          out.end((e?: Error | null) => (e ? reject(e) : resolve())),
        );
    },
  };
}

/** Opens the configured database for export or import (no embedder: vectors travel in the file). */
export async function openPortable(io: Io, role: string) {
  const [{ loadConfig }, { openDatabase }, { announceNothing }, { systemClock }] = await Promise.all([
    import("../../config"),
    import("../../db/client"),
    import("../../memory/events"),
    import("../../providers/types"),
  ]);
  const config = loadConfig(io.env);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    distributed: config.distributed,
    role,
  });
  try {
    await database.migrate();
  } catch (err) {
    await database.close();
    throw err;
  }
  // Enrichment left pending is found by the workers' sweep: the database holds it.
  return {
    deps: { db: database.db, clock: systemClock, announce: announceNothing },
    close: () => database.close(),
  };
}
