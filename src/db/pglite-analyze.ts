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
