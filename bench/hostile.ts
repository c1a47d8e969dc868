/**
 * Hostile inputs against the real service over HTTP, each with its time, its answer and
 * how long `/healthz` stalled meanwhile: `npx tsx bench/hostile.ts` on the test database
 * (TEST_DATABASE_URL). `BENCH_HOSTILE_SCALE` (default 1 = the sizes) scales every case;
 * `BENCH_HOSTILE_CASES` a comma list of name substrings; `BENCH_HOSTILE_TIMEOUT_MS` (default 60 s)
 * gives up on one case; `BENCH_HOSTILE_ZERO_CONFIG=1` runs them against zero-config instead (embedded
 * PGlite, in-process workers, the offline model). Token counting of unbroken letter runs is timed
 * directly first.
 */
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import { createTokenCounter } from "../src/memory/context/tokens";
import { hostileCases, startProbe, type Target } from "../test/support/hostile";
import { listen } from "../test/support/listen";
import { startTestSystem } from "../test/support/system";

const SCALE = Number(process.env.BENCH_HOSTILE_SCALE ?? 1);
/** `BENCH_HOSTILE_ZERO_CONFIG=1`: zero-config (embedded PGlite in memory, in-process workers, offline model). */
const ZERO_CONFIG = process.env.BENCH_HOSTILE_ZERO_CONFIG === "1";
const ONLY = process.env.BENCH_HOSTILE_CASES?.split(",") ?? null;
const TIMEOUT = Number(process.env.BENCH_HOSTILE_TIMEOUT_MS ?? 60_000);
const RUNS = (process.env.BENCH_HOSTILE_RUNS ?? "1000,2000,4000,8000").split(",").map(Number);
const path = (name: string) => name.startsWith("mcp");
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const count = createTokenCounter("o200k_base");
count("warm");
for (const n of RUNS) {
  let text = "";
  let x = 7;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    text += String.fromCharCode(97 + (x % 26));
  }
  const t0 = performance.now();
  const tokens = count(text);
  console.log(`count tokens of ${n} letters, no space: ${s(performance.now() - t0)} (${tokens} tokens)`);
}

const secret = "hostile-secret";
const env = { MEMSTREAM_API_KEYS: "hostile-admin", GITHUB_WEBHOOK_SECRET: secret };
const t = ZERO_CONFIG ? await zeroConfig(env) : await startTestSystem({ env });
const server = await listen(t.app.fetch);
const target: Target = { url: server.url, key: "hostile-admin", agent: `hostile-${process.pid}`, secret };
const probe = startProbe(server.url);
console.log(`\nscale ${SCALE}; case | status | time | healthz stall | event-loop block`);
try {
  for (const c of hostileCases(SCALE)) {
    if (ONLY && !ONLY.some((o) => c.name.includes(o))) continue;
    const go = await c.prepare(target);
    probe.reset();
    const t0 = performance.now();
    const answer = await Promise.race([
      go().then(
        (r) =>
          `${r.status} ${r.status >= 400 || path(c.name) ? r.text.slice(0, 160).replace(/\s+/g, " ") : ""}`,
        (err: Error) => `failed: ${err.message} ${(err.cause as Error | undefined)?.message ?? ""}`,
      ),
      new Promise<string>((r) => setTimeout(() => r(`no answer within ${s(TIMEOUT)}`), TIMEOUT)),
    ]);
    const ms = performance.now() - t0;
    const { stallMs, loopMs } = await probe.read();
    console.log(`${c.name} | ${answer} | ${s(ms)} | ${s(stallMs)} | ${s(loopMs)}`);
  }
} finally {
  await probe.stop();
  await server.close();
  await t.close();
}

/** The zero-config system `npm start` composes without DATABASE_URL, its workers running. */
async function zeroConfig(env: Record<string, string>) {
  const system = await composeSystem(loadConfig({ MEMSTREAM_DATA_DIR: "memory://", ...env }), silentLogger);
  system.jobs.startWorkers();
  return { app: createApp(system.app), close: () => system.close() };
}
