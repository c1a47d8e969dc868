import { sqlState } from "./sql-state";

/**
 * Runs `transaction` again when PostgreSQL aborted it to break a deadlock (40P01): the other
 * transaction of the cycle has gone on, and everything this one did was rolled back, so running
 * it again is safe. Deletes take their rows in id order, but the lexical statistics' trigger
 * updates a lexeme's row per deleted memory in the order rows are deleted, so two deletes over
 * overlapping words can still meet in a cycle. At most `attempts` runs, a short random pause
 * between them; past that the error goes to the caller.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (attempt >= attempts || sqlState(err) !== "40P01") throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
}
