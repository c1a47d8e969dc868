/**
 * The cost of deletion reaching what was derived (docs/adr/0034) on a 10k stream:
 * `npx tsx bench/derived-deletion.ts`. A database of its own (`memstream_bench_derived`, made
 * fresh): one agent with BENCH_DERIVED_MEMORIES observations (default 10,000), a tenth as many
 * reflections each citing 3 random observations, and a tenth of those citing 2 reflections each.
 * Figures, each over BENCH_DERIVED_N deletes (default 200), interleaved pairwise:
 * - an uncited observation deleted as before (delete + release the memories it superseded) and as
 *   now (deleteMemory: + the citing lookup, which finds nothing): the price every delete pays;
 * - a cited observation deleted now: its reflections, and the reflections on those, go too;
 * - deleteDerived over a retention-sized batch of 500 uncited ids (one lookup).
 * Prints p50/p95 per figure and the load average.
 */
import { loadavg } from "node:os";
import { and, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase } from "../src/db/client";
import { memories } from "../src/db/schema";
import { deleteMemory } from "../src/memory/delete-memory";
import { deleteDerived } from "../src/memory/derived/delete-derived";
import { releaseSuperseded } from "../src/memory/supersede";
import { quantile } from "./lib/stats";

const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = process.env.BENCH_DERIVED_DATABASE ?? "memstream_bench_derived";
const M = Number(process.env.BENCH_DERIVED_MEMORIES ?? 10_000);
const N = Number(process.env.BENCH_DERIVED_N ?? 200);
const AGENT = "bench-derived";

const admin = postgres(BASE, { max: 1, onnotice: () => {} });
await admin.unsafe(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
await admin.unsafe(`CREATE DATABASE "${NAME}"`);
const url = new URL(BASE);
url.pathname = `/${NAME}`;
const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: 2 });
await database.migrate();
const db = database.db;

// A deterministic stream: observations o0…, reflections r0… citing 3 observations, s0… citing 2 reflections.
let seed = 42;
const rand = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
};
const obs = Array.from({ length: M }, (_, i) => `mem_o${i}`);
const refl = Array.from({ length: M / 10 }, (_, i) => `mem_r${i}`);
const second = Array.from({ length: M / 100 }, (_, i) => `mem_s${i}`);
const rows: { id: string; kind: string; citations: string[] }[] = [
  ...obs.map((id) => ({ id, kind: "observation", citations: [] as string[] })),
  ...refl.map((id) => ({ id, kind: "reflection", citations: [0, 1, 2].map(() => obs[rand(M)] as string) })),
  ...second.map((id) => ({
    id,
    kind: "reflection",
    citations: [0, 1].map(() => refl[rand(refl.length)] as string),
  })),
];
for (let i = 0; i < rows.length; i += 1_000) {
  await db.insert(memories).values(
    rows.slice(i, i + 1_000).map((r, j) => ({
      id: r.id,
      agentId: AGENT,
      kind: r.kind,
      description: `memory ${i + j} about deploys and invoices`,
      citations: r.citations,
      importance: 5,
      createdAt: new Date(Date.UTC(2026, 0, 1) + (i + j) * 60_000),
      lastAccessedAt: new Date(Date.UTC(2026, 0, 1) + (i + j) * 60_000),
      importanceStatus: "ready",
      embeddingStatus: "failed",
    })),
  );
}
await db.execute(sql`ANALYZE memories`);
const cited = new Set(rows.flatMap((r) => r.citations));
const uncited = obs.filter((id) => !cited.has(id));
const citedObs = obs.filter((id) => cited.has(id));

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const before: number[] = [];
const now: number[] = [];
const cascade: number[] = [];
let derivedDeleted = 0;
for (let i = 0; i < N; i++) {
  const a = uncited[2 * i] as string;
  const b = uncited[2 * i + 1] as string;
  let t0 = process.hrtime.bigint();
  await db.transaction(async (tx) => {
    await tx.delete(memories).where(and(eq(memories.agentId, AGENT), eq(memories.id, a)));
    await releaseSuperseded(tx, AGENT, [a]);
  });
  before.push(ms(t0));
  t0 = process.hrtime.bigint();
  await deleteMemory({ db }, AGENT, b);
  now.push(ms(t0));
  const c = citedObs[i] as string;
  t0 = process.hrtime.bigint();
  const r = await deleteMemory({ db }, AGENT, c);
  cascade.push(ms(t0));
  derivedDeleted += r.derived.reflection ?? 0;
}
const batch: number[] = [];
for (let i = 0; i < 20; i++) {
  const ids = uncited.slice(2 * N + 500 * i, 2 * N + 500 * (i + 1));
  const t0 = process.hrtime.bigint();
  await db.transaction((tx) => deleteDerived(tx, AGENT, ids));
  batch.push(ms(t0));
}
const line = (name: string, xs: number[]) =>
  `${name.padEnd(52)} p50 ${quantile(xs, 0.5).toFixed(2)} ms  p95 ${quantile(xs, 0.95).toFixed(2)} ms  (n ${xs.length})`;
console.log(`stream: ${M} observations, ${refl.length} reflections on 3, ${second.length} on 2 reflections`);
console.log(line("delete an uncited memory, as before", before));
console.log(line("delete an uncited memory, now (+ citing lookup)", now));
console.log(line(`delete a cited memory, now (${(derivedDeleted / N).toFixed(2)} derived each)`, cascade));
console.log(line("deleteDerived over 500 uncited ids (no delete)", batch));
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
await database.close();
await admin.unsafe(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
await admin.end();
