/**
 * What the LLM budget costs a chat call: `npx tsx bench/llm-budget.ts`. In a database of the bench's
 * own (memstream_bench_budget on BENCH_DATABASE_URL's server): BENCH_CALLS (default 2,000)
 * sequential `charge` upserts into one agent's day (the hot row) and as many `status` reads (the
 * check before each call), then the same number of charges from 8 concurrent lanes, whose sums must
 * come out exact (the upsert is the only writer and adds in place). Prints p50/p95 beside targets.
 */
import postgres from "postgres";
import { openDatabase } from "../src/db/client";
import { createLlmBudget } from "../src/memory/budget/budget";
import { systemClock } from "../src/providers/types";

const CALLS = Number(process.env.BENCH_CALLS ?? 2_000);
const LANES = 8;
const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const admin = postgres(base, { max: 1, onnotice: () => {} });
const name = "memstream_bench_budget";
if ((await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length === 0)
  await admin.unsafe(`CREATE DATABASE "${name}"`);
await admin.end();
const url = new URL(base);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: LANES });
await database.migrate();
const budget = createLlmBudget({
  db: database.db,
  clock: systemClock,
  defaults: { dailyTokens: 1_000_000_000, dailyCalls: 0 },
});
const agent = `bench-budget-${Date.now()}`;
const usage = { promptTokens: 150, completionTokens: 3 };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
async function timed(n: number, op: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await op();
    ms.push(performance.now() - t0);
  }
  return ms;
}

await timed(100, () => budget.charge(`${agent}-warm`, usage));
const charge = await timed(CALLS, () => budget.charge(agent, usage));
const status = await timed(CALLS, () => budget.status(agent));
const t0 = performance.now();
await Promise.all(
  Array.from({ length: LANES }, () => timed(CALLS / LANES, () => budget.charge(`${agent}-c`, usage))),
);
const concurrentMs = performance.now() - t0;
const s = await budget.status(`${agent}-c`);
const exact = s.spent.calls === CALLS && s.spent.tokens === CALLS * 153;

const rows: [string, string, string][] = [
  ["charge (upsert), p50 ms", pct(charge, 50).toFixed(3), "≤ 1"],
  ["charge (upsert), p95 ms", pct(charge, 95).toFixed(3), "≤ 5"],
  ["status (check), p50 ms", pct(status, 50).toFixed(3), "≤ 1"],
  ["status (check), p95 ms", pct(status, 95).toFixed(3), "≤ 5"],
  [`${LANES} lanes on one row, charges/s`, ((CALLS / concurrentMs) * 1000).toFixed(0), "≥ 500"],
  [`${LANES} lanes: sums exact`, `${exact} (${s.spent.calls} calls, ${s.spent.tokens} tokens)`, "true"],
];
console.log(`LLM budget, ${CALLS} calls each`);
for (const [what, figure, target] of rows)
  console.log(`  ${what.padEnd(34)} ${String(figure).padEnd(32)} target ${target}`);
await database.close();
