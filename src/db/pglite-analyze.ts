import type { PGlite, Transaction } from "@electric-sql/pglite";

/**
 * Autovacuum's ANALYZE for embedded PGlite, which has no autovacuum daemon and keeps no
 * modification counters (`pg_stat_user_tables.n_mod_since_analyze` stays 0): a database that is
 * never analyzed is planned with default selectivities, and a default retrieve over 10,000
 * memories joined every memory to every vector in a nested loop (10⁸ comparisons, 15–74 s
 * instead of ~0.3 s; docs/adr/0028). After each statement or transaction that writes, a table
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
 * The same for statements that arrive as wire-protocol messages (the socket server of
 * pglite.worker.ts, which bypasses `query` and `exec`): a Parse or Query whose text names a write
 * marks the connection; once a Sync or a Query has run (the backend is ready for a query) and no
 * transaction is open, the check is queued ahead of the next message (PGlite's one queue, first
 * come first served). Never inside an extended-protocol exchange: a simple query there drops the
 * unnamed prepared statement or meets the exchange's implicit transaction.
 */
export function analyzeAfterProtocolWrites(client: PGlite, onError: (e: unknown) => void): void {
  const raw = client.execProtocolRawStream.bind(client);
  let wrote = false;
  Object.assign(client, {
    execProtocolRawStream: async (...args: Parameters<PGlite["execProtocolRawStream"]>) => {
      const r = await raw(...args);
      const { writes, settled } = scan(args[0]);
      wrote ||= writes;
      if (wrote && settled && !client.isInTransaction()) {
        wrote = false;
        // Not awaited: this call holds the queue; the check runs right after it.
        void client.exec(ANALYZE_GROWN).catch(onError);
      }
      return r;
    },
  });
}

/** Walks frontend messages (a type byte, then an int32 length that counts itself). */
function scan(bytes: Uint8Array): { writes: boolean; settled: boolean } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let writes = false;
  let settled = false;
  for (let at = 0; at + 5 <= buf.length; ) {
    const type = String.fromCharCode(buf[at] as number);
    const length = buf.readInt32BE(at + 1);
    if (length < 4) break;
    if (type === "S" || type === "Q") settled = true;
    if ((type === "P" || type === "Q") && !writes) {
      // The statement text comes first (after the statement name for Parse); a bounded look is enough.
      writes = WRITES.test(buf.toString("latin1", at + 5, Math.min(at + 1 + length, at + 5 + 64 * 1024)));
    }
    at += 1 + length;
  }
  return { writes, settled };
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
