import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, queryRows } from "../../src/db/client";
import { TEST_DATABASE_URL, uniq } from "../support/env";

// The result cache trusts agent_generations: a write that could change an answer must change the
// agent's token, and a touch or a claim must not (else every retrieve with touch would empty the
// cache). Run on PostgreSQL and on PGlite, the zero-config database.

/** Every column of `memories` the update trigger ignores; all others must change the token. */
const IGNORED = new Set([
  "id",
  "last_accessed_at",
  "inserted_at",
  "updated_at",
  "attempts",
  "prompt_version",
  "importance_claimed_by",
  "importance_claimed_until",
  "embedding_claimed_by",
  "embedding_claimed_until",
  "description_tsv",
  // When the supersession check is due: bookkeeping of a job, no answer shows it.
  "supersession_due_at",
]);

for (const backend of ["postgres", "pglite"] as const) {
  describe(`agent generation tokens (${backend})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase(
        backend === "postgres"
          ? { url: TEST_DATABASE_URL, dataDir: "" }
          : { url: null, dataDir: "memory://" },
      );
      await database.migrate();
    }, 120_000);
    afterAll(() => database?.close());

    const token = async (agent: string) =>
      (
        await queryRows<{ g: string }>(
          database.db,
          sql`SELECT generation::text AS g FROM agent_generations WHERE agent_id = ${agent}`,
        )
      )[0]?.g ?? null;
    const insert = (agent: string, id: string) =>
      database.db.execute(
        sql`INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at)
          VALUES (${id}, ${agent}, 'observation', ${`memory ${id}`}, now(), now())`,
      );
    /** Runs `change` and says whether the agent's token moved. */
    const moves = async (agent: string, change: () => Promise<unknown>) => {
      const before = await token(agent);
      await change();
      const after = await token(agent);
      return after !== null && after !== before;
    };

    it("changes on an insert, per agent of the statement, and not for another agent", async () => {
      const [a, b] = [uniq("gen-a"), uniq("gen-b")];
      expect(await moves(a, () => insert(a, uniq("m")))).toBe(true);
      const other = await token(a);
      expect(await moves(b, () => insert(b, uniq("m")))).toBe(true);
      expect(await token(a)).toBe(other);
    });

    it("changes on what an answer shows or ranks by, not on touches or claims", async () => {
      const agent = uniq("gen-upd");
      const id = uniq("m");
      await insert(agent, id);
      const set = (assignment: ReturnType<typeof sql>) =>
        database.db.execute(sql`UPDATE memories SET ${assignment} WHERE agent_id = ${agent} AND id = ${id}`);
      expect(await moves(agent, () => set(sql`last_accessed_at = now() + interval '1 hour'`))).toBe(false);
      expect(
        await moves(agent, () => set(sql`importance_claimed_by = 'w1', importance_claimed_until = now()`)),
      ).toBe(false);
      // Setting a column to the value it has is no change either.
      expect(await moves(agent, () => set(sql`importance_status = 'pending'`))).toBe(false);
      expect(await moves(agent, () => set(sql`importance = 7, importance_status = 'ready'`))).toBe(true);
      expect(await moves(agent, () => set(sql`metadata = '{"a": 1}'::jsonb`))).toBe(true);
      expect(await moves(agent, () => set(sql`description = 'edited'`))).toBe(true);
      expect(await moves(agent, () => set(sql`expires_at = now() + interval '1 day'`))).toBe(true);
      expect(
        await moves(agent, () =>
          database.db.execute(
            sql`INSERT INTO memory_embeddings (agent_id, memory_id, model, dimensions, embedding, revision)
              VALUES (${agent}, ${id}, 'm', 3, '[1,0,0]', 1)`,
          ),
        ),
      ).toBe(true);
      expect(
        await moves(agent, () =>
          database.db.execute(
            sql`INSERT INTO agent_settings (agent_id, reflection_threshold) VALUES (${agent}, 5)`,
          ),
        ),
      ).toBe(true);
      expect(
        await moves(agent, () => database.db.execute(sql`DELETE FROM memories WHERE agent_id = ${agent}`)),
      ).toBe(true);
    });

    it("the update trigger names every column of memories but those it ignores on purpose", async () => {
      const columns = (
        await queryRows<{ c: string }>(
          database.db,
          sql`SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'memories'`,
        )
      ).map((r) => r.c);
      const [trigger] = await queryRows<{ def: string }>(
        database.db,
        sql`SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgname = 'memories_generation_updated'`,
      );
      // A new column must be added to the trigger's WHEN (migration) or to IGNORED here, on purpose.
      const unnamed = columns.filter((c) => !IGNORED.has(c) && !trigger?.def.includes(`old.${c}`));
      expect(unnamed).toEqual([]);
    });
  });
}
