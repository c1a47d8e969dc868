import { mkdirSync } from "node:fs";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { projectPath } from "../lib/paths";
import { withoutCopy } from "./copy-support";
import { type Distribution, distributeOnCitus } from "./distribute";
import { claimFolder, type FolderLock } from "./folder-lock";
import { BACKGROUND_APPLICATION } from "./pglite-exchanges";
import { type PgliteThread, startPgliteThread } from "./pglite-thread";
import * as schema from "./schema";
import { noDelaySocket } from "./socket";

/** The database handle every domain function takes. Same type for Postgres and embedded PGlite. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  /**
   * The in-process workers' handle: `db` itself on PostgreSQL; on embedded PGlite a second
   * connection whose exchanges the database's thread runs after the API's (pglite-exchanges.ts).
   */
  background: Db;
  /** `postgres` (a server via DATABASE_URL) or `pglite` (embedded, zero-config). */
  kind: "postgres" | "pglite";
  /**
   * Runs the migrations in `migrations/` (idempotent, serialized across processes on Postgres), then
   * the distribution step when the database is distributed (src/db/distribute.ts).
   */
  migrate(): Promise<void>;
  /** The embedded folder this process owns (src/db/folder-lock.ts); null for Postgres and `memory://`. */
  folder: FolderLock | null;
  close(): Promise<void>;
};

/** Opens the configured database: Postgres when a URL is given, else embedded PGlite in `dataDir`. */
export async function openDatabase(opts: {
  url: string | null;
  dataDir: string;
  poolSize?: number;
  /** Sees the text of every statement sent to Postgres (tests check what queries name). */
  onQuery?: (query: string) => void;
  /** MEMSTREAM_DISTRIBUTED: `citus` distributes the tables after migrating (a Citus coordinator). */
  distributed?: Distribution | null;
  /** What this process is, written in an embedded folder's lock for a second process to read. */
  role?: string;
  /** It hands an embedded folder over on SIGUSR2 (src/db/folder-lock.ts). */
  yields?: boolean;
}): Promise<Database> {
  if (!opts.url && opts.distributed) {
    throw new Error(`MEMSTREAM_DISTRIBUTED=${opts.distributed} needs DATABASE_URL (a Citus coordinator)`);
  }
  return opts.url
    ? openPostgres(opts.url, opts.poolSize ?? 10, opts.onQuery, opts.distributed ?? null)
    : openPglite(opts.dataDir, opts.role ?? `memstream (${process.argv[1] ?? "node"})`, opts.yields ?? false);
}

/**
 * Seconds before the pool reconnects after its n-th failed attempt in a row. postgres-js's own
 * backoff grows as 3^n/100 up to 20 s, and queries wait for it: during an outage the 12th request
 * waited ~11 s for its 503, and after the database came back the pool stayed away for up to 20 s.
 * Capped at half a second (with jitter), a request answers 503 at once and recovery follows the
 * database within a second; ten connections retrying twice a second is no load for Postgres.
 */
export const reconnectDelaySeconds = (failures: number) =>
  (0.5 + Math.random() / 2) * Math.min(3 ** failures / 100, 0.5);

const MIGRATIONS = { migrationsFolder: projectPath("migrations") };
// Any constant works; it only has to be the same in every memstream process.
const MIGRATION_LOCK = 727_274_001;

async function openPostgres(
  url: string,
  max: number,
  onQuery: ((query: string) => void) | undefined,
  distributed: Distribution | null,
): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 5,
    backoff: reconnectDelaySeconds,
    // A documented postgres-js option its types leave out (README, "Custom socket").
    ...({ socket: noDelaySocket() } as object),
    ...(onQuery ? { debug: (_connection: number, query: string) => onQuery(query) } : {}),
  });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    background: db,
    kind: "postgres",
    async migrate() {
      // A one-connection client holds a session-level advisory lock, so an API process and a
      // worker starting together never apply the same migration twice.
      const one = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
      try {
        await one`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
        await migrate(drizzle(one), MIGRATIONS);
        if (distributed === "citus") await distributeOnCitus(one);
      } finally {
        await one.end({ timeout: 5 });
      }
    },
    folder: null,
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * Embedded PGlite, off the API's thread (docs/adr/0031): a worker thread runs it and serves the wire
 * protocol on a Unix socket; this side is the same postgres-js client as for a server. Two
 * connections of one each: the API's and the in-process workers', so the thread can serve the
 * API's statements first (PGlite runs one at a time; pglite-exchanges.ts).
 */
async function openPglite(dataDir: string, role: string, yields: boolean): Promise<Database> {
  // "memory://" keeps everything in RAM (tests); anything else is a folder on disk.
  const onDisk = !dataDir.startsWith("memory://");
  if (onDisk) mkdirSync(dataDir, { recursive: true });
  // Before PGlite touches the files: a second process on the folder loses writes (folder-lock.ts).
  const folder = onDisk ? claimFolder(dataDir, role, yields) : null;
  let thread: PgliteThread;
  try {
    thread = await startPgliteThread({
      dataDir,
      migrationsFolder: MIGRATIONS.migrationsFolder,
      maxConnections: 2,
    });
  } catch (err) {
    folder?.release();
    throw err;
  }
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const connect = (application: string) => {
    const client = postgres({
      path: thread.socketPath,
      user: "postgres",
      database: "postgres",
      max: 1,
      onnotice: () => {},
      connect_timeout: 5,
      backoff: reconnectDelaySeconds,
      connection: { application_name: application },
    });
    const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
    withoutCopy(db);
    return { client, db };
  };
  const api = connect("memstream");
  const background = connect(BACKGROUND_APPLICATION);
  return {
    db: api.db,
    background: background.db,
    kind: "pglite",
    migrate: () => thread.migrate(),
    folder,
    close: async () => {
      await Promise.all([api.client.end({ timeout: 5 }), background.client.end({ timeout: 5 })]);
      await thread.close();
      folder?.release();
    },
  };
}

/** Runs raw SQL and returns its rows, whichever driver is underneath. */
export async function queryRows<T>(db: Pick<Db, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  // postgres-js returns an array of rows; PGlite returns `{ rows }`.
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
