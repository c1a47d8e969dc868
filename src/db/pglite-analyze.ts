import type { PGlite, Transaction } from "@electric-sql/pglite";

/**
 * Autovacuum's ANALYZE for embedded PGlite, which has no autovacuum daemon and keeps no
 * modification counters (`pg_stat_user_tables.n_mod_since_analyze` stays 0): a database that is
 * never analyzed is planned with default selectivities, and a default retrieve over 10,000
 * memories joined every memory to every vector in a nested loop (seconds instead of a fraction of
 * one; docs/adr/0028). After each statement or transaction that writes, a table
 * that has grown past the size its statistics were taken at (pages, by ~10 % + 2, as
 * autovacuum's 50 rows + 10 %) is analyzed. The check is queued on the connection before the
 * writer's next statement (PGlite runs one at a time, first come first served), so what follows
 * a write is planned with statistics of the data it reads, and the writer does not wait for it.
 */
export function analyzeWhenGrown(
  client: PGlite,
  onError: (e: unknown) => void,
): { settled(): Promise<void> } {
  let pending: Promise<void> = Promise.resolve();
  const check = () => {
    pending = client
      .exec(ANALYZE_GROWN)
      .then(() => undefined)
      .catch(onError);
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  Object.assign(client, {
    query: async (...args: Parameters<PGlite["query"]>) => {
      const r = await query(...args);
      if (WRITES.test(args[0])) check();
      return r;
    },
    exec: async (...args: Parameters<PGlite["exec"]>) => {
      const r = await exec(...args);
      if (WRITES.test(args[0])) check();
      return r;
    },
    transaction: async <T>(fn: (tx: Transaction) => Promise<T>) => {
      let wrote = false;
      const r = await transaction((tx) => {
        const q = tx.query.bind(tx);
        const e = tx.exec.bind(tx);
        Object.assign(tx, {
          query: (...args: Parameters<Transaction["query"]>) => {
            if (WRITES.test(args[0])) wrote = true;
            return q(...args);
          },
          exec: (...args: Parameters<Transaction["exec"]>) => {
            if (WRITES.test(args[0])) wrote = true;
            return e(...args);
          },
        });
        return fn(tx);
      });
      if (wrote) check();
      return r;
    },
  });
  // A database opened from disk that was written before it was analyzed.
  check();
  return { settled: () => pending };
}

/**
 * The same for statements that arrive as wire-protocol messages (the socket of pglite.worker.ts,
 * which bypasses `query` and `exec`): `names(message)` says whether a Parse or Query names a write,
 * and the exchange scheduler (pglite-exchanges.ts) runs `run()` between exchanges, never inside an
 * extended-protocol exchange (a simple query there drops the unnamed prepared statement or meets
 * the exchange's implicit transaction) nor inside a transaction.
 */
export function protocolAnalyzer(
  client: PGlite,
  onError: (e: unknown) => void,
): { names(message: Uint8Array): boolean; run(): Promise<void> } {
  return {
    names: (message) => scan(message),
    run: () =>
      client
        .exec(ANALYZE_GROWN)
        .then(() => undefined)
        .catch(onError),
  };
}

/** Whether a frontend message (a type byte, then an int32 length that counts itself) is a Parse or Query naming a write. */
function scan(bytes: Uint8Array): boolean {
  const type = bytes[0];
  if ((type !== 0x50 /* P */ && type !== 0x51) /* Q */ || bytes.length < 5) return false;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The statement text comes first (after the statement name for Parse); a bounded look is enough.
  return WRITES.test(buf.toString("latin1", 5, Math.min(buf.length, 5 + 64 * 1024)));
}

/** A statement that may add rows (a retrieve's log insert counts too; the check is ~1 ms). */
const WRITES = /\b(insert|update|delete|copy|merge)\b/i;

/**
 * One statement, so nothing else runs between the check and the ANALYZE: the tables of the
 * public schema whose file has grown past the pages counted when they were last analyzed
 * (relpages; 0 and reltuples −1 before the first ANALYZE).
 */
const ANALYZE_GROWN = `DO $$
DECLARE t regclass;
BEGIN
  FOR t IN
    SELECT c.oid::regclass FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r'
      AND pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.1 + 2
  LOOP
    EXECUTE format('ANALYZE %s', t);
  END LOOP;
END $$`;
