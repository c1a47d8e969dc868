/**
 * The default ranking's speed as a stream grows, each figure beside its target:
 * `npx tsx bench/default-speed.ts` (part of `npm run bench`), on `EVAL_DATABASE_URL` or else its
 * own database (`memstream_bench_default` on BENCH_DATABASE_URL's server, created once). Data: the LoCoMo
 * dev turns (`LOCOMO_DIR`, bench/lib/locomo.ts `locomoDir`) with their offline (USE-lite)
 * vectors, loaded on first use, copied in SQL into one agent per size (each copy 400 days before
 * the last, cut at the size); questions of conv-43 asked at their own time, k 10, exact, no touch.
 * Parts (`BENCH_DEFAULT_PARTS`, default all):
 * - `scale`: the default (query text and its vector) against the paper preset (the vector), paired
 *   per question and alternating (bench/lib/paired.ts), at `BENCH_DEFAULT_SIZES` (default
 *   1000,10000,100000; `BENCH_FULL=1` adds 1,000,000). The query vector is computed beforehand:
 *   its time is reported beside (`embed p50`), as the target asks.
 * - `statement`: the default's ranking statement alone on whole streams (no time window), the
 *   fused statement (plan `fused`) against the full statement it replaced, paired per
 *   question and alternating, in a transaction with retrieve's settings; rankings compared bit for
 *   bit (ids and scores), at the `scale` sizes from 10k.
 * - `concurrency`: 16 clients at once against one, each retrieving with the default from its own
 *   1k-memory stream with query text (embedded by the service, distinct questions so the cache
 *   never answers): throughput ratio, target ≥ 1.8×.
 * - `pglite`: the default at 10k on embedded PGlite against PostgreSQL, interleaved, target ≤ 3×.
 * - `base` (not in the default parts): the default at BENCH_DEFAULT_SIZES against another
 *   checkout's retrieve (`BENCH_DEFAULT_BASE`, e.g. `git worktree add ../base <commit>` with
 *   node_modules linked), paired per question, rankings compared by ids and scores.
 * - `windowed` (not in the default parts): windowed relevance alone with the time filter (weights
 *   0/0/1, the best relevance alone, ADR 0026) at BENCH_DEFAULT_SIZES against the same request to
 *   BENCH_DEFAULT_BASE's retrieve, paired per question, rankings compared by ids and scores.
 * - `backlog`: zero-config (PGlite, in-process workers, offline embedder): `BENCH_BACKLOG` (default
 *   2,000) memories without vectors are posted, then batch POSTs of 250 are timed while the workers
 *   embed them: p99, target ≤ 50 ms. In memory, or with `BENCH_BACKLOG_ON_DISK=1` in a fresh
 *   folder on disk as `npm start` keeps it.
 * - `backlog-pg`: the same with PostgreSQL (this bench's database) and in-process workers: what
 *   the backlog costs a POST when the database is not WebAssembly on the API's thread.
 * `BENCH_BACKLOG_NICE` (e.g. `0,19,0,19`): each backlog part runs once per MEMSTREAM_EMBED_BATCH_NICE
 * value, in that order, one row each, with the model in threads (default: the configured value).
 * Both backlog parts also time a retrieve with query text (embedded by the query threads, on a
 * stream with nothing pending) after each timed POST, and how many memories a second the workers
 * embedded meanwhile.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { composeSystem, type System } from "../src/compose";
import { loadConfig } from "../src/config";
import { queryRows } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import { exactStatement, useExactScan } from "../src/memory/retrieve/execute";
import { WORKERS_MIN_STREAM } from "../src/memory/retrieve/plan";
import { DEFAULT_PRESET, PRESETS } from "../src/memory/retrieve/presets";
import { retrieve } from "../src/memory/retrieve/retrieve";
import type { RankParams } from "../src/memory/retrieve/statements/params";
import {
  appCall,
  type Call,
  copyAgent,
  loadTurns,
  locomoDir,
  memoryText,
  type Query,
  readLocomo,
} from "./lib/locomo";
import { ownDatabase } from "./lib/own-database";
import { pairedRuns, pairedSummary, retrieveOf } from "./lib/paired";
import { printTable, quantile, writeResults } from "./lib/stats";
import { printTargets, type Target } from "./lib/targets";

const dir = locomoDir();
const url = process.env.EVAL_DATABASE_URL ?? (await ownDatabase("memstream_bench_default"));
const PARTS = (
  process.env.BENCH_DEFAULT_PARTS ?? "scale,vocab,statement,concurrency,pglite,backlog,backlog-pg"
).split(",");
const SIZES = (process.env.BENCH_DEFAULT_SIZES ?? "1000,10000,100000").split(",").map(Number);
if (process.env.BENCH_FULL === "1" && !SIZES.includes(1_000_000)) SIZES.push(1_000_000);
const N = Number(process.env.N ?? 40);
/** Memories waiting to be embedded while the backlog part times its POSTs (the target's 2,000). */
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 2_000);
/** MEMSTREAM_EMBED_BATCH_NICE values the backlog parts run at, one row each (none: the default). */
const NICES = process.env.BENCH_BACKLOG_NICE?.split(",").filter(Boolean) ?? [];
const ms = (x: number) => x.toFixed(1);
/** The scaled agents' name (bench/explore/pglite-explain.ts copies them): copies with distinct texts. */
const SCALED = "distinct";

const { turns, queries, fingerprint } = readLocomo(dir);
const system = await openSystem({ DATABASE_URL: url });
const source = `locomo-${fingerprint}-${system.providers.embedder.modelId}:`;
await loadTurns(appCall(system), system.providers.embedder, turns, (conv) => `${source}${conv}`);
const sql = postgres(url, { max: 1, onnotice: () => {} });
const asked = queries.filter((q) => q.conversation_id === "conv-43").slice(0, N);
const results: Record<string, unknown> = { at: new Date().toISOString() };
/** The default's speed targets, each with this run's figure (printed last, and by `npm run bench` at its end). */
const targets: Target[] = [];
const target = (what: string, figure: string, goal: string, met: boolean | null) =>
  targets.push({ target: what, figure, goal, verdict: met === null ? "—" : met ? "met" : "missed" });

try {
  if (PARTS.includes("scale")) results.scale = await scale();
  if (PARTS.includes("statement")) results.statement = await statement();
  if (PARTS.includes("previous")) results.previous = await previous();
  if (PARTS.includes("base")) results.base = await againstBase("base");
  if (PARTS.includes("windowed")) results.windowed = await againstBase("windowed");
  if (PARTS.includes("concurrency")) results.concurrency = await perEmbedder(concurrency);
  if (PARTS.includes("pglite")) results.pglite = await pglite();
  if (PARTS.includes("vocab")) results.vocab = await vocab();
  if (PARTS.includes("backlog"))
    results.backlog = NICES.length > 0 ? await perNice({}) : await perEmbedder(backlog);
  if (PARTS.includes("backlog-pg"))
    results.backlogPg = await (NICES.length > 0 ? perNice : backlog)({ DATABASE_URL: url as string });
} finally {
  await sql.end();
  await system.close();
}
results.targets = targets;
printTargets(targets);
console.log(`\nresults: ${writeResults("default-speed", results)}`);

/** Default against the paper preset at each size, paired per question. */
async function scale() {
  // Each question embedded alone, uncached (the embedder the service uses for a query).
  const embedMs: number[] = [];
  const vectors: number[][] = [];
  const { createOfflineEmbedder } = await import("../src/providers/offline-embedder");
  const raw = await createOfflineEmbedder();
  await raw.embed(["warm up"]);
  for (const q of asked) {
    const t0 = performance.now();
    const [v] = await raw.embed([q.question]);
    embedMs.push(performance.now() - t0);
    vectors.push(v as number[]);
  }
  const rows = [];
  for (const size of SIZES) {
    const agent = await scaledAgent(size);
    const rank = (i: number, body: object) => {
      const q = asked[i] as Query;
      return retrieve(system.services, agent, {
        ...body,
        query: q.question,
        queryEmbedding: vectors[i],
        now: q.now,
        k: 10,
        touch: false,
        ...body,
      });
    };
    // The default as a user gets it (mode auto: in phases), the paper preset as it ranks (exactly).
    const p = await pairedRuns(asked.length, async (side, i) => {
      const r = await rank(i, side === "base" ? { preset: "paper", mode: "exact" } : {});
      return r.memories.map((m) => m.id).join(",");
    });
    // Top-10 agreement of the default in phases with the default ranked exactly over the whole stream.
    const agreements: number[] = [];
    let plans = "";
    for (let i = 0; i < asked.length; i++) {
      const [phased, exact] = [await rank(i, {}), await rank(i, { mode: "exact" })];
      const want = new Set(exact.memories.map((m) => m.id));
      agreements.push(phased.memories.filter((m) => want.has(m.id)).length / Math.max(want.size, 1));
      plans = phased.ranking.plan;
    }
    const agreement = agreements.reduce((x, y) => x + y, 0) / agreements.length;
    target(
      `top-10 agreement of the default (plan ${plans}) with exact, ${size.toLocaleString("en-US")} memories`,
      `${agreement.toFixed(3)} (min ${Math.min(...agreements).toFixed(1)})`,
      "≥ 0.95",
      agreement >= 0.95,
    );
    const paper = quantile(p.base, 0.5);
    const def = quantile(p.new, 0.5);
    const ratio = def / paper;
    const bound = size >= 1_000_000 ? 100 : size >= 100_000 ? 40 : size <= 1_000 ? 10 : null;
    const mem = size.toLocaleString("en-US");
    target(
      `default / paper preset, ${mem} memories (p50s)`,
      `${ratio.toFixed(2)} (${ms(def)} / ${ms(paper)} ms; median pair ${quantile(p.ratios, 0.5).toFixed(2)})`,
      size >= 10_000 ? "≤ 1.2" : "— (1.2 from 10k)",
      size >= 10_000 ? ratio <= 1.2 : null,
    );
    if (bound)
      target(
        `default p50, ${mem} memories (query embedding excluded: ${ms(quantile(embedMs, 0.5))} ms beside)`,
        `${ms(def)} ms`,
        `≤ ${bound} ms`,
        def <= bound,
      );
    rows.push({
      memories: size.toLocaleString("en-US"),
      "paper p50 ms": ms(paper),
      "default p50 ms": ms(def),
      "default / paper (target)": `${ratio.toFixed(2)} (${size >= 10_000 ? "≤ 1.2" : "—"})`,
      "median pair ratio": quantile(p.ratios, 0.5).toFixed(2),
      "top-10 agreement with exact": agreement.toFixed(3),
      "default p50 target": bound ? `≤ ${bound} ms: ${def <= bound ? "met" : "missed"}` : "—",
      "query embed p50 ms (not in the above)": ms(quantile(embedMs, 0.5)),
    });
  }
  console.log(
    `\nthe default (contextual relevance from words and vectors) against the paper preset, LoCoMo turns copied to each size, ${asked.length} questions x 2 rounds, paired`,
  );
  printTable(rows);
  return rows;
}

/**
 * A stream written from ten words (every memory shares words with every question, as a stream of
 * similar events does), asked right after it is written, before any statistics: the default,
 * hybrid and windowed relevance against the paper preset, each request's time, and 503s counted.
 * Vectors: each memory's is the normalised sum of its words' (the offline embedder's), so
 * relevance means something; the query is embedded by the service.
 */
async function vocab() {
  const WORDS = ["alice", "party", "bob", "game", "city", "music", "dinner", "garden", "travel", "book"];
  const SIZE = Number(process.env.BENCH_VOCAB_SIZE ?? 20_000);
  const wordVectors = await system.providers.embedder.embed(WORDS);
  let s = 5;
  const rnd = () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const agent = `bench-vocab-${Date.now()}`;
  const call = appCall(system);
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  for (let i = 0; i < SIZE; i += 1_000) {
    const memories = Array.from({ length: Math.min(1_000, SIZE - i) }, (_, j) => {
      const picked = Array.from({ length: 3 + Math.floor(rnd() * 5) }, () =>
        Math.floor(rnd() * WORDS.length),
      );
      const v = new Array<number>(512).fill(0);
      for (const w of picked) {
        const wv = wordVectors[w] as number[];
        for (let d = 0; d < v.length; d++) v[d] = (v[d] as number) + (wv[d] as number);
      }
      const n = Math.hypot(...v) || 1;
      return {
        description: picked.map((w) => WORDS[w]).join(" "),
        createdAt: new Date(t0 + (i + j) * 60_000).toISOString(),
        importance: 1 + Math.floor(rnd() * 10),
        embedding: v.map((x) => x / n),
        embeddingModel: system.providers.embedder.modelId,
      };
    });
    await call("POST", `/v1/agents/${agent}/memories`, { memories });
  }
  const bodies: [string, Record<string, unknown>][] = [
    ["paper preset", { preset: "paper" }],
    ["default", {}],
    ["hybrid", { relevance: "hybrid" }],
    ["windowed", { relevance: "windowed" }],
  ];
  const rows = [];
  const times: Record<string, number[]> = {};
  let failures = 0;
  for (let round = 0; round < 3; round++)
    for (const [name, body] of bodies) {
      const t = performance.now();
      const res = await retrieve(system.services, agent, {
        query: "alice party",
        k: 10,
        touch: false,
        ...body,
      }).then(
        (r) => r.ranking.plan,
        (e: Error) => `error: ${e.name}`,
      );
      if (res.startsWith("error")) failures++;
      const took = performance.now() - t;
      times[name] = [...(times[name] ?? []), took];
      if (round === 0) rows.push({ ranking: name, "first answer ms": ms(took), plan: res });
    }
  const paper = Math.max(...(times["paper preset"] as number[]));
  const slowest = Math.max(...Object.values(times).flat());
  for (const row of rows) {
    const xs = times[row.ranking] as number[];
    Object.assign(row, {
      "max of 3 ms": ms(Math.max(...xs)),
      "max / paper's max": (Math.max(...xs) / paper).toFixed(2),
    });
  }
  for (const name of ["default", "hybrid"]) {
    const ratio = Math.max(...(times[name] as number[])) / paper;
    target(
      `${name} / paper preset, ${SIZE.toLocaleString("en-US")}-memory 10-word stream asked right after writing (max)`,
      `${ratio.toFixed(2)}`,
      "≤ 2",
      ratio <= 2,
    );
  }
  target(
    "slowest retrieve on the 10-word stream (default, hybrid, windowed, paper)",
    `${ms(slowest)} ms (${failures} errors)`,
    "≤ 2,000 ms",
    slowest <= 2_000,
  );
  console.log(
    `\n${SIZE.toLocaleString("en-US")} memories from a 10-word vocabulary, asked "alice party" right after writing (no ANALYZE), 3 rounds`,
  );
  printTable(rows);
  await call("DELETE", `/v1/agents/${agent}`);
  return rows;
}

/** The fused statement against the full statement for the default on whole streams, paired per question. */
async function statement() {
  const vectors = await system.providers.embedder.embed(asked.map((q) => q.question));
  const ranking = PRESETS[DEFAULT_PRESET];
  const rows = [];
  for (const size of SIZES.filter((s) => s >= 10_000)) {
    const agent = await scaledAgent(size);
    const params = (i: number): RankParams => {
      const q = asked[i] as Query;
      return {
        agentId: agent,
        filters: {},
        query: {
          vector: `[${(vectors[i] as number[]).join(",")}]`,
          model: system.providers.embedder.modelId,
          dimensions: 512,
        },
        lexical: {
          kind: ranking.relevance as "contextual",
          text: q.question,
          vectorShare: ranking.vectorShare,
        },
        timeWindow: null,
        now: new Date(q.now),
        decay: ranking.decay,
        recencyUnit: ranking.recencyUnit,
        weights: ranking.weights,
        k: 10,
        touch: false,
      };
    };
    const workers = size >= WORKERS_MIN_STREAM;
    const p = await pairedRuns(asked.length, async (side, i) => {
      const chosen = { statement: side === "base" ? "full" : "fused", reason: "", workers } as const;
      const ranked = await system.database.db.transaction(async (tx) => {
        await useExactScan(tx, workers);
        return queryRows<{ id: string; score: number }>(tx, exactStatement(chosen, params(i)));
      });
      return ranked.map((r) => `${r.id}:${r.score}`).join(",");
    });
    rows.push({ memories: size.toLocaleString("en-US"), ...pairedSummary(p) });
  }
  console.log(
    `\nthe default's statement on whole streams: fused (new) against full (base), ${asked.length} questions x 2 rounds, paired`,
  );
  printTable(rows);
  return rows;
}

/**
 * The default against the default before it (ADR 0014's `balanced`, given as explicit
 * fields), paired per question at BENCH_DEFAULT_SIZES, and the same for the default with
 * contextual relevance in place of windowed: `BENCH_DEFAULT_PARTS=previous`.
 */
async function previous() {
  const { createOfflineEmbedder } = await import("../src/providers/offline-embedder");
  const raw = await createOfflineEmbedder();
  const vectors = await raw.embed(asked.map((q) => q.question));
  const before = {
    weights: { recency: 1, importance: 0.5, relevance: 2.25 },
    decay: 0.998,
    recencyUnit: "day" as const,
    relevance: "contextual" as const,
    vectorShare: 0.85,
    timeFilter: true,
    scaleFloors: false,
    versions: false,
  };
  const rows = [];
  for (const size of SIZES) {
    const agent = await scaledAgent(size);
    for (const [name, now] of [
      ["default (no ranking field)", {}],
      ["default with contextual relevance", { relevance: "contextual" as const }],
    ] as const) {
      const p = await pairedRuns(asked.length, async (side, i) => {
        const q = asked[i] as Query;
        const r = await retrieve(system.services, agent, {
          ...(side === "base" ? before : now),
          query: q.question,
          queryEmbedding: vectors[i],
          now: q.now,
          k: 10,
          touch: false,
          mode: "exact",
        });
        return r.memories.map((m) => m.id).join(",");
      });
      rows.push({
        memories: size.toLocaleString("en-US"),
        ranking: name,
        "previous default p50 ms": ms(quantile(p.base, 0.5)),
        "p50 ms": ms(quantile(p.new, 0.5)),
        "median pair ratio (target ≤ 1.10)": quantile(p.ratios, 0.5).toFixed(2),
      });
    }
  }
  console.log(`
the default against the previous default, ${asked.length} questions, paired`);
  printTable(rows);
  return rows;
}

/**
 * A ranking at each size against another checkout's retrieve (`BENCH_DEFAULT_BASE`), paired per
 * question, rankings compared by ids and scores: the default (part `base`), or windowed relevance
 * alone + time filter (part `windowed`).
 */
async function againstBase(part: "base" | "windowed") {
  const checkout = process.env.BENCH_DEFAULT_BASE;
  if (!checkout) throw new Error(`BENCH_DEFAULT_PARTS=${part} needs BENCH_DEFAULT_BASE (a checkout)`);
  const ranking =
    part === "windowed"
      ? ({
          mode: "exact",
          relevance: "windowed",
          weights: { recency: 0, importance: 0, relevance: 1 },
          timeFilter: true,
        } as const)
      : {};
  const baseRetrieve = await retrieveOf(checkout);
  const vectors = await system.providers.embedder.embed(asked.map((q) => q.question));
  const rows = [];
  for (const size of SIZES) {
    const agent = await scaledAgent(size);
    const p = await pairedRuns(asked.length, async (side, i) => {
      const q = asked[i] as Query;
      const r = await (side === "base" ? baseRetrieve : retrieve)(system.services, agent, {
        query: q.question,
        queryEmbedding: vectors[i],
        now: q.now,
        k: 10,
        touch: false,
        ...ranking,
      });
      return r.memories.map((m) => `${m.id}:${m.score}`).join(",");
    });
    rows.push({ memories: size.toLocaleString("en-US"), ...pairedSummary(p) });
  }
  const what = part === "windowed" ? "windowed relevance alone + time filter" : "the default";
  console.log(
    `\n${what}, this checkout (new) against ${checkout} (base), ${asked.length} questions x 2 rounds, paired`,
  );
  printTable(rows);
  return rows;
}

/**
 * A part run with the offline model in worker threads (the default) and on the event loop
 * (MEMSTREAM_EMBED_THREADS=0, as before the embedding threads), one table row each.
 */
async function perEmbedder(part: (env: Record<string, string>) => Promise<Record<string, string | number>>) {
  const rows = [];
  for (const [embedder, env] of [
    ["worker threads (default)", {}],
    ["on the event loop (MEMSTREAM_EMBED_THREADS=0)", { MEMSTREAM_EMBED_THREADS: "0" }],
  ] as const)
    rows.push({ "offline model": embedder, ...(await part(env)) });
  printTable(rows);
  return rows;
}

/** Throughput of 16 concurrent default retrieves (query text) on 1k-memory streams against one client. */
async function concurrency(env: Record<string, string>) {
  const own = await openSystem({ DATABASE_URL: url as string, MEMSTREAM_WORKERS: "off", ...env });
  const CLIENTS = 16;
  const agents = await Promise.all(Array.from({ length: CLIENTS }, (_, c) => scaledAgent(1_000, `c${c}`)));
  const questions = queries.map((q) => q.question);
  let next = 0;
  // Every request a question not asked before in this run: the query embedding is never cached.
  const one = (agent: string) =>
    retrieve(own.services, agent, {
      query: `${questions[next++ % questions.length]} (${next})`,
      k: 10,
      touch: false,
    });
  // Where a serial bottleneck would show: the API thread's event loop busy all the time (ELU near
  // 1), or the process's CPU (API thread + embedder threads) near one core while the other idles.
  const busy: Record<number, { elu: number[]; cpu: number[] }> = {
    1: { elu: [], cpu: [] },
    16: { elu: [], cpu: [] },
  };
  const run = async (clients: number, each: number) => {
    const t0 = performance.now();
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; i < each; i++) await one(agents[c] as string);
      }),
    );
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    busy[clients]?.elu.push(performance.eventLoopUtilization(elu0).utilization);
    busy[clients]?.cpu.push((cpu.user + cpu.system) / 1000 / wall);
    return (clients * each) / (wall / 1000);
  };
  await run(2, 4);
  const single: number[] = [];
  const many: number[] = [];
  for (let round = 0; round < 3; round++) {
    single.push(await run(1, 32));
    many.push(await run(CLIENTS, 4));
  }
  const ratio = quantile(many, 0.5) / quantile(single, 0.5);
  target(
    `16 clients / 1 client, default retrieves with text on 1k streams${env.MEMSTREAM_EMBED_THREADS === "0" ? " (embedder on the event loop)" : ""}`,
    `${ratio.toFixed(2)} (${quantile(single, 0.5).toFixed(1)} → ${quantile(many, 0.5).toFixed(1)} retrieves/s)`,
    "≥ 1.8",
    ratio >= 1.8,
  );
  const row = {
    "1 client retrieves/s": quantile(single, 0.5).toFixed(1),
    "16 clients retrieves/s": quantile(many, 0.5).toFixed(1),
    "16 / 1 (target ≥ 1.8)": `${ratio.toFixed(2)} (${ratio >= 1.8 ? "met" : "missed"})`,
    "API loop busy 1 / 16": `${quantile(busy[1]?.elu ?? [], 0.5).toFixed(2)} / ${quantile(busy[16]?.elu ?? [], 0.5).toFixed(2)}`,
    "node cores 1 / 16": `${quantile(busy[1]?.cpu ?? [], 0.5).toFixed(2)} / ${quantile(busy[16]?.cpu ?? [], 0.5).toFixed(2)}`,
  };
  console.log(
    "\ndefault retrieves with query text (embedded by the service) on 1k-memory streams, median of 3 rounds",
  );
  printTable([row]);
  return row;
}

/** The default at 10k on embedded PGlite against PostgreSQL, interleaved per question. */
async function pglite() {
  const agent = await scaledAgent(10_000);
  const lite = await openSystem({ MEMSTREAM_DATA_DIR: "memory://" });
  try {
    // Copied once per database: a later run finds the agent there already.
    const stats = (await appCall(lite)("GET", `/v1/agents/${encodeURIComponent(agent)}/stats`)) as {
      total: number;
    };
    if (stats.total === 0) await copyAgent(sql, agent, lite, system.providers.embedder.modelId);
    const vectors = await system.providers.embedder.embed(asked.map((q) => q.question));
    const p = await pairedRuns(asked.length, async (side, i) => {
      const q = asked[i] as Query;
      const r = await retrieve((side === "base" ? system : lite).services, agent, {
        query: q.question,
        queryEmbedding: vectors[i],
        now: q.now,
        k: 10,
        touch: false,
      });
      // The copy has ids of its own: compared by text and createdAt.
      return r.memories.map((m) => `${m.createdAt} ${m.description}`).join("\n");
    });
    const ratio = quantile(p.new, 0.5) / quantile(p.base, 0.5);
    target(
      "zero-config (PGlite) / PostgreSQL, the default at 10k (p50s)",
      `${ratio.toFixed(2)} (${ms(quantile(p.new, 0.5))} / ${ms(quantile(p.base, 0.5))} ms)`,
      "≤ 3",
      ratio <= 3,
    );
    const row = {
      memories: "10,000",
      "PostgreSQL p50 ms": ms(quantile(p.base, 0.5)),
      "PGlite p50 ms": ms(quantile(p.new, 0.5)),
      "PGlite / PostgreSQL (target ≤ 3)": `${ratio.toFixed(2)} (${ratio <= 3 ? "met" : "missed"})`,
      "rankings that differ": p.differ,
    };
    console.log("\nthe default at 10k memories, embedded PGlite against PostgreSQL, paired per question");
    printTable([row]);
    return row;
  } finally {
    await lite.close();
  }
}

/** A backlog part once per BENCH_BACKLOG_NICE value (the batch threads' priority), in its order. */
async function perNice(env: Record<string, string>) {
  const rows = [];
  for (const nice of NICES)
    rows.push({
      "batch threads' nice": nice,
      ...(await backlog({ ...env, MEMSTREAM_EMBED_BATCH_NICE: nice })),
    });
  printTable(rows);
  return rows;
}

/**
 * Batch POSTs of 250 while in-process workers embed a backlog of BACKLOG (zero-config): the backlog
 * is posted in batches of 250, then batches are timed while any memory still waits (at most 20).
 */
async function backlog(env: Record<string, string>) {
  // On disk as `npm start` keeps it (BENCH_BACKLOG_ON_DISK=1, a fresh folder), else in memory.
  const folder =
    process.env.BENCH_BACKLOG_ON_DISK === "1" ? mkdtempSync(join(tmpdir(), "memstream-backlog-")) : null;
  const lite = await openSystem({
    MEMSTREAM_DATA_DIR: folder ? join(folder, "data") : "memory://",
    MEMSTREAM_WORKERS: "in-process",
    ...env,
  });
  const database = env.DATABASE_URL ? "PostgreSQL" : "PGlite";
  // What `npm start` does with in-process workers (src/server.ts); composing alone starts none.
  lite.jobs.startWorkers();
  // A new agent each run: a database that outlives the run (PostgreSQL) keeps earlier ones.
  const agent = `bench-backlog-${Date.now().toString(36)}`;
  try {
    const call = appCall(lite);
    const texts = turns.map(memoryText);
    const batch = (from: number, n: number) => ({
      // Numbered, so no text repeats one the embedder's cache holds.
      memories: Array.from({ length: n }, (_, i) => ({
        description: `${texts[(from + i) % texts.length]} (${from + i})`,
      })),
    });
    await call("POST", `/v1/agents/${agent}/memories`, batch(0, 10)); // warm the route and the model
    await until(async () => (await pending(call, agent)) === 0, 300_000);
    // The same POST with nothing to embed, as the reference (each batch is embedded before the next).
    const idle: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await call("POST", `/v1/agents/${agent}-idle/memories`, batch(1_000_000 + i * 250, 250));
      idle.push(performance.now() - t0);
      await until(async () => (await pending(call, `${agent}-idle`)) === 0, 300_000);
    }
    // A retrieve whose query the service embeds (a question not asked before in this run, so the
    // cache never answers) on the idle stream: the query threads' latency with and without a backlog.
    let asks = 0;
    const ask = async () => {
      const q = queries[asks++ % queries.length] as Query;
      const t0 = performance.now();
      await call("POST", `/v1/agents/${agent}-idle/retrieve`, { query: `${q.question} (${asks})`, k: 10 });
      return performance.now() - t0;
    };
    const idleAsks: number[] = [];
    for (let i = 0; i < 5; i++) idleAsks.push(await ask());
    for (let i = 0; i < BACKLOG; i += 250)
      await call("POST", `/v1/agents/${agent}/memories`, batch(10 + i, Math.min(250, BACKLOG - i)));
    const times: number[] = [];
    const asked: number[] = [];
    const waiting = await pending(call, agent);
    const started = performance.now();
    for (let i = 0; i < 20 && (await pending(call, agent)) > 0; i++) {
      const t0 = performance.now();
      await call("POST", `/v1/agents/${agent}/memories`, batch(BACKLOG + 10 + i * 250, 250));
      times.push(performance.now() - t0);
      asked.push(await ask());
      await new Promise((r) => setTimeout(r, 100));
    }
    // How fast the backlog went meanwhile: what a lower priority for the batch threads may cost.
    const embedded = waiting + times.length * 250 - (await pending(call, agent));
    const perS = embedded / ((performance.now() - started) / 1000);
    const p99 = quantile(times, 0.99);
    if (process.env.BENCH_DEBUG)
      for (const xs of [times, asked])
        console.log(
          [...xs]
            .sort((a, b) => a - b)
            .map((t) => t.toFixed(0))
            .join(" "),
        );
    target(
      `batch POST of 250 while ${BACKLOG.toLocaleString("en-US")} are embedded in-process (${database})${env.MEMSTREAM_EMBED_THREADS === "0" ? ", embedder on the event loop" : ""}${env.MEMSTREAM_EMBED_BATCH_NICE ? `, batch nice ${env.MEMSTREAM_EMBED_BATCH_NICE}` : ""}: p99`,
      `${ms(p99)} ms (${times.length} POSTs${folder ? ", on disk" : ""}; p50 ${ms(quantile(times, 0.5))}, idle p50 ${ms(quantile(idle, 0.5))} ms)`,
      "≤ 50 ms",
      p99 <= 50,
    );
    const row = {
      "POSTs timed": times.length,
      "idle p50 ms (nothing to embed)": ms(quantile(idle, 0.5)),
      "p50 ms": ms(quantile(times, 0.5)),
      "p99 ms (target ≤ 50)": `${ms(p99)} (${p99 <= 50 ? "met" : "missed"})`,
      "retrieve p50 / p99 ms (idle p50)": `${ms(quantile(asked, 0.5))} / ${ms(quantile(asked, 0.99))} (${ms(quantile(idleAsks, 0.5))})`,
      "embedded per s meanwhile": perS.toFixed(1),
    };
    console.log(
      `\nbatch POST of 250 memories while ${BACKLOG.toLocaleString("en-US")} others wait to be embedded in-process (${database})`,
    );
    printTable([row]);
    return row;
  } finally {
    // What is still pending would feed the next run's sweep (a database that outlives the run).
    if (env.DATABASE_URL) await sql`DELETE FROM memories WHERE agent_id IN (${agent}, ${`${agent}-idle`})`;
    await lite.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

async function pending(call: Call, agent: string): Promise<number> {
  const stats = (await call("GET", `/v1/agents/${agent}/stats`)) as { embedding: { pending: number } };
  return stats.embedding.pending;
}

async function until(ok: () => Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * An agent of exactly `size` memories: the loaded turns copied (vectors too), oldest copies first
 * cut. Each copy after the first ends its text with its number ("… (copy 3)"): the default folds
 * exact copies into one hit (ADR 0030), and a stream of 36 exact copies of each turn would time
 * that, not a stream that grew.
 */
async function scaledAgent(size: number, tag = ""): Promise<string> {
  const agent = `${source}${SCALED}-${size}${tag ? `-${tag}` : ""}`;
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${agent}`;
  if (row?.n === size) return agent;
  await sql`DELETE FROM memories WHERE agent_id = ${agent}`;
  await sql.begin(async (tx) => {
    for (let c = 0, left = size; left > 0; c++) {
      const shift = `${c * 400} days`;
      // The source memories of this copy first, so the vectors join them (the copies' statistics
      // are stale inside the transaction: a join on the new rows was planned as a nested loop).
      await tx`CREATE TEMP TABLE IF NOT EXISTS copied (id text, agent_id text) ON COMMIT DROP`;
      await tx`TRUNCATE copied`;
      const [n] = await tx<{ n: number }[]>`
        WITH s AS (
          INSERT INTO copied SELECT id, agent_id FROM memories WHERE agent_id LIKE ${`${source}conv-%`}
          ORDER BY created_at DESC, id LIMIT ${left} RETURNING 1
        ) SELECT count(*)::int AS n FROM s`;
      await tx`INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at,
          importance, importance_status, embedding_status, embedding_model, metadata)
        SELECT m.id || '-x' || ${c}, ${agent}, kind,
          description || CASE WHEN ${c}::int = 0 THEN '' ELSE ' (copy ' || ${c}::int || ')' END,
          created_at - ${shift}::interval,
          last_accessed_at - ${shift}::interval, importance, importance_status, embedding_status,
          embedding_model, metadata
        FROM copied JOIN memories m ON m.agent_id = copied.agent_id AND m.id = copied.id`;
      await tx`INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
        SELECT e.memory_id || '-x' || ${c}, ${agent}, e.model, e.dimensions, e.embedding, e.revision
        FROM copied JOIN memory_embeddings e ON e.agent_id = copied.agent_id AND e.memory_id = copied.id`;
      left -= n?.n ?? left;
    }
  });
  await sql`ANALYZE memories`;
  await sql`ANALYZE memory_embeddings`;
  return agent;
}

/** A database of the bench's own on the local server (never a test one), created if missing. */

async function openSystem(env: Record<string, string>): Promise<System> {
  return composeSystem(
    loadConfig({ MEMSTREAM_DATA_DIR: "memory://", EMBEDDING_PROVIDER: "offline", ...env }),
    silentLogger,
  );
}
