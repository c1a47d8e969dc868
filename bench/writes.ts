/**
 * Batch writes through the HTTP API: `npm run bench:writes`. The service runs as its own process
 * (bench/lib/write-server.ts: real HTTP, an API key, no workers) on its own database
 * (`memstream_bench_writes`, emptied before each figure); clients POST batches of memories with
 * vectors supplied (importance 5, a model of its own, so no HNSW index) and count memories stored
 * per second, wall clock, from the first request to the last answer.
 *
 * Every figure runs BENCH_WRITES_REPEAT times (default 3, rounds interleaved so a busy spell of the
 * shared machine does not land on one figure) and the median is printed. Bodies are built before
 * the clock starts: the figure is the service's, not the client's. Knobs: BENCH_WRITES_DIMS
 * (512,1536), BENCH_WRITES_BATCHES (100,1000), BENCH_WRITES_CLIENTS (1,4), BENCH_WRITES_MEMORIES
 * (memories per figure, default 10,000), BENCH_WRITES_MINIMAL=1 (also each figure with
 * `Prefer: return=minimal`), BENCH_WRITES_BASE64=1 (also each figure with vectors sent as base64
 * float32, on this checkout's server only), BENCH_WRITES_PROFILE=dir (a CPU profile of the server over each
 * figure's timed requests in the first round, `dir/<server>-<dims>-<batch>-<clients>.cpuprofile`;
 * summarize with `npx tsx bench/lib/profile-summary.ts dir/*.cpuprofile`), BENCH_WRITES_COMPARE
 * (the bench/lib/write-server.ts of another checkout: each figure also runs against it, alternating,
 * and the table gives both and the ratio, measured in the same run). "server CPU ms / 1,000" is the
 * service process's CPU time (user + system) per 1,000 memories stored, which a loaded machine
 * inflates far less than wall time; Postgres's CPU is not in it. BENCH_WRITES_DATABASE names the
 * database (default memstream_bench_writes). BENCH_WRITES_LEXICON_AB=1: every figure also runs with the
 * lexical statistics trigger and GIN index of migration 0016 off (trigger disabled, index dropped;
 * the same server, alternating within each round), and memories carry sentences of 8-24 words instead
 * of two, so the table gives the cost of keeping the statistics, paired (docs/adr/0024).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import postgres from "postgres";
import { openDatabase } from "../src/db/client";
import { printTable, quantile, writeResults } from "./lib/stats";

const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = process.env.BENCH_WRITES_DATABASE ?? "memstream_bench_writes";
const AGENT = "bench-writer";
const KEY = "bench-writes-key";
const nums = (v: string | undefined, d: number[]) => (v ? v.split(",").map(Number) : d);
const DIMS = nums(process.env.BENCH_WRITES_DIMS, [512, 1536]);
const BATCHES = nums(process.env.BENCH_WRITES_BATCHES, [100, 1000]);
const CLIENTS = nums(process.env.BENCH_WRITES_CLIENTS, [1, 4]);
const MEMORIES = Number(process.env.BENCH_WRITES_MEMORIES ?? 10_000);
const REPEAT = Number(process.env.BENCH_WRITES_REPEAT ?? 3);
const PROFILE = process.env.BENCH_WRITES_PROFILE;
const COMPARE = process.env.BENCH_WRITES_COMPARE;
const MINIMAL = process.env.BENCH_WRITES_MINIMAL === "1";
const BASE64 = process.env.BENCH_WRITES_BASE64 === "1";
const LEXICON_AB = process.env.BENCH_WRITES_LEXICON_AB === "1";
const TARGET = 5_000;
const VOCABULARY = Array.from({ length: 3_000 }, (_, i) => `w${(i * 7_919).toString(36)}`);

/** `lexicon: false`: the same server with the lexical statistics triggers switched off. */
type Server = { name: string; child: ChildProcess; port: number; lexicon?: boolean };
const url = await ensureDatabase();
const servers: Server[] = [
  await startServer("this", new URL("./lib/write-server.ts", import.meta.url).pathname, url),
];
if (COMPARE) servers.push(await startServer("compared", COMPARE, url));
if (LEXICON_AB) servers.push({ ...(servers[0] as Server), name: "no lexicon triggers", lexicon: false });
const sql = postgres(url, { max: 1, onnotice: () => {} });

type Figure = {
  dims: number;
  batch: number;
  clients: number;
  minimal: boolean;
  base64: boolean;
  perSec: Map<Server, number[]>;
  requestMs: Map<Server, number[]>;
  cpuMs: Map<Server, number[]>;
};
const figures: Figure[] = [];
for (const dims of DIMS)
  for (const batch of BATCHES)
    for (const clients of CLIENTS)
      for (const minimal of MINIMAL ? [false, true] : [false])
        for (const base64 of BASE64 ? [false, true] : [false])
          figures.push({
            dims,
            batch,
            clients,
            minimal,
            base64,
            perSec: new Map(),
            requestMs: new Map(),
            cpuMs: new Map(),
          });
const shape = (f: Figure) => `${f.dims}/${f.batch}/${f.base64 ? "base64" : "numbers"}`;
// Base64 vectors are this checkout's addition: the compared server would refuse them.
const serversOf = (f: Figure) => (f.base64 ? servers.slice(0, 1) : servers);

try {
  // Four distinct bodies per shape, reused: ids are the server's, so a body may be sent again.
  const bodies = new Map<string, Buffer[]>();
  for (const f of figures) {
    if (!bodies.has(shape(f)))
      bodies.set(
        shape(f),
        Array.from({ length: 4 }, () => body(f.batch, f.dims, f.base64)),
      );
  }
  for (let round = 1; round <= REPEAT; round++) {
    for (const f of figures) {
      // Alternate which server goes first, so neither always follows the other's writes.
      const order = round % 2 ? serversOf(f) : [...serversOf(f)].reverse();
      for (const s of order) {
        const profile =
          PROFILE && round === 1
            ? `${PROFILE}/${s.name}-${f.dims}-${f.batch}-${f.clients}${f.minimal ? "-minimal" : ""}${f.base64 ? "-base64" : ""}.cpuprofile`
            : "";
        const r = await measure(s, bodies.get(shape(f)) as Buffer[], f, profile);
        push(f.perSec, s, [r.perSec]);
        push(f.requestMs, s, r.requestMs);
        push(f.cpuMs, s, [r.cpuMsPer1000]);
        console.log(
          `round ${round}, ${s.name}: ${f.dims}-d, batches of ${f.batch}, ${f.clients} client(s)${f.minimal ? ", return=minimal" : ""}${f.base64 ? ", base64" : ""}: ${Math.round(r.perSec)} memories/s`,
        );
      }
    }
  }
} finally {
  if (LEXICON_AB) await lexicon(true);
  await sql.end();
  for (const s of servers.filter((s) => s.lexicon !== false)) {
    s.child.stdin?.end();
    await once(s.child, "exit");
  }
}

const rows = figures.flatMap((f) =>
  serversOf(f).map((s) => {
    const perSec = f.perSec.get(s) ?? [];
    const ms = f.requestMs.get(s) ?? [];
    const median = quantile(perSec, 0.5);
    const row: Record<string, string | number> = {
      server: s.name,
      dims: f.dims,
      batch: f.batch,
      clients: f.clients,
      vectors: f.base64 ? "base64" : "numbers",
      answer: f.minimal ? "minimal" : "full",
      runs: perSec.map((x) => Math.round(x)).join(" / "),
      "memories/s, median (target)": `${Math.round(median)} (${verdict(median)})`,
      "request p50 ms": quantile(ms, 0.5),
      "request p99 ms": quantile(ms, 0.99),
      "server CPU ms / 1,000": quantile(f.cpuMs.get(s) ?? [], 0.5),
    };
    if (COMPARE) row["× compared"] = "";
    if (COMPARE && !f.base64) {
      const other = quantile(f.perSec.get(servers[1] as Server) ?? [], 0.5);
      row["× compared"] = (median / other).toFixed(2);
    }
    return row;
  }),
);
console.log(
  `\nbatch writes, vectors supplied, no HNSW index, over HTTP (${MEMORIES} memories per run, median of ${REPEAT}; target ≥ 5,000/s; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")})`,
);
printTable(rows);
console.log(`\nresults: ${writeResults("writes", { at: new Date().toISOString(), rows })}`);

/** The target for batch writes with vectors supplied and no HNSW index, beside each figure. */
function verdict(perSec: number): string {
  return perSec >= TARGET
    ? `≥ 5,000: met`
    : `≥ 5,000: missed by ${Math.round(100 * (1 - perSec / TARGET))} %`;
}

function push(m: Map<Server, number[]>, s: Server, xs: number[]) {
  m.set(s, [...(m.get(s) ?? []), ...xs]);
}

/** One figure: `clients` concurrent clients share ~MEMORIES memories in batches; stored count checked. */
async function measure(server: Server, pool: Buffer[], f: Figure, profile: string) {
  await sql`TRUNCATE memories CASCADE`;
  if (LEXICON_AB) await lexicon(server.lexicon !== false);
  const perClient = Math.max(1, Math.round(MEMORIES / (f.batch * f.clients)));
  const requestMs: number[] = [];
  const client = async (c: number, n: number, timed: boolean) => {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await post(server, pool[(c + i) % pool.length] as Buffer, f.minimal);
      if (timed) requestMs.push(performance.now() - t0);
    }
  };
  // Warm-up: one batch per client (connections, prepared statements, JIT), not counted.
  await Promise.all(Array.from({ length: f.clients }, (_, c) => client(c, 1, false)));
  if (profile) await tell(server, { profile: "start" });
  const cpu0 = (await tell(server, { cpu: true })).cpu;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: f.clients }, (_, c) => client(c, perClient, true)));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (await tell(server, { cpu: true })).cpu - cpu0;
  if (profile) await tell(server, { profile: "stop", file: profile });
  const expected = (perClient + 1) * f.clients * f.batch;
  const [row] = await sql`SELECT count(*)::int AS n FROM memory_embeddings WHERE agent_id = ${AGENT}`;
  if (row?.n !== expected) throw new Error(`stored ${row?.n} vectors, expected ${expected}`);
  const stored = perClient * f.clients * f.batch;
  return { perSec: stored / seconds, requestMs, cpuMsPer1000: cpu / stored };
}

/** The lexical statistics trigger and GIN index of migration 0016 on or off (the table is empty). */
async function lexicon(on: boolean) {
  await sql.unsafe(`ALTER TABLE memories ${on ? "ENABLE" : "DISABLE"} TRIGGER memories_lexicon_inserted`);
  await sql.unsafe(
    on
      ? `CREATE INDEX IF NOT EXISTS memories_agent_terms_idx ON memories USING gin (agent_id, description_tsv)`
      : `DROP INDEX IF EXISTS memories_agent_terms_idx`,
  );
}

/** Sends a server a command (profiler, CPU time) and waits for its answer. */
async function tell(
  server: Server,
  m: { profile?: "start" | "stop"; file?: string; cpu?: true },
): Promise<{ cpu: number }> {
  server.child.send(m);
  const [answer] = await once(server.child, "message");
  return answer as { cpu: number };
}

async function post(server: Server, json: Buffer, minimal: boolean) {
  const res = await fetch(`http://127.0.0.1:${server.port}/v1/agents/${AGENT}/memories`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${KEY}`,
      ...(minimal ? { prefer: "return=minimal" } : {}),
    },
    body: json,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`batch POST: ${res.status} ${text.slice(0, 300)}`);
}

/** A batch as UTF-8 bytes (so the client does not encode 10–30 MB per request on the shared cores). */
function body(n: number, dims: number, base64: boolean): Buffer {
  const numbers = () => Array.from({ length: dims }, () => Math.random() * 2 - 1);
  const vec = () =>
    base64 ? Buffer.from(Float32Array.from(numbers()).buffer).toString("base64") : numbers();
  const json = JSON.stringify({
    memories: Array.from({ length: n }, (_, i) => ({
      description: LEXICON_AB ? sentence(i) : `write ${i}`,
      importance: 5,
      embedding: vec(),
      embeddingModel: `bench-writes-${dims}`,
    })),
  });
  return Buffer.from(json);
}

/** 8-24 words, Zipf-like draws from a 3,000-word vocabulary (a chat turn's distinct lexemes). */
function sentence(i: number): string {
  const n = 8 + (i % 17);
  return Array.from({ length: n }, () => VOCABULARY[Math.floor(3_000 ** Math.random()) - 1]).join(" ");
}

/** Starts a write-server.ts; resolves once it listens. */
async function startServer(name: string, path: string, databaseUrl: string): Promise<Server> {
  if (PROFILE) mkdirSync(PROFILE, { recursive: true });
  const child = spawn(process.execPath, ["--import", "tsx", path], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["pipe", "pipe", "inherit", "ipc"],
  });
  const out = child.stdout as NodeJS.ReadableStream;
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`write server ${path} exited with ${code}`)));
    out.on("data", (d: Buffer) => {
      const m = /port (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
  });
  return { name, child, port };
}

/** The bench's own database (never a test one), migrated. */
async function ensureDatabase(): Promise<string> {
  const admin = postgres(BASE, { max: 1, onnotice: () => {} });
  const exists = await admin`SELECT 1 FROM pg_database WHERE datname = ${NAME}`;
  if (exists.length === 0) await admin.unsafe(`CREATE DATABASE "${NAME}"`);
  await admin.end();
  const u = new URL(BASE);
  u.pathname = `/${NAME}`;
  const database = await openDatabase({ url: u.toString(), dataDir: "", poolSize: 1 });
  await database.migrate();
  await database.close();
  return u.toString();
}
