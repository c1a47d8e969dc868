/**
 * How long the zero-config server's event loop stalls under ordinary batches: `npm start`
 * as a newcomer runs it (embedded PGlite in a fresh folder, in-process workers, the offline model)
 * as a child process, `/healthz` polled every 100 ms from here, and per case the longest wait
 * beyond the poll interval. `npx tsx bench/zero-config-stalls.ts`; `BENCH_STALL_RUNS` (default 3)
 * runs each case that many times. Prints the load average with every row, and this process's own
 * longest event-loop delay (a stall it caused itself would show there too): each body is
 * serialized before its window opens.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startProbe } from "../test/support/hostile";
import { spawnEntry } from "../test/support/spawn";

const RUNS = Number(process.env.BENCH_STALL_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "memstream-stalls-"));
const server = spawnEntry("src/server.ts", {
  PATH: process.env.PATH ?? "",
  PORT: "0",
  MEMSTREAM_DATA_DIR: join(dir, "data"),
});
const url = String((await server.waitForLog(/^listening$/, 180_000)).url);
const probe = startProbe(url, 100);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

let n = 0;
const memories = (count: number, metadataBytes: number) =>
  Array.from({ length: count }, () => ({
    description: `memory ${n++}: the deploy of service ${n % 17} went out at ${n % 24}:00`,
    ...(metadataBytes > 0 ? { metadata: { notes: "m".repeat(metadataBytes) } } : {}),
  }));

/** A POST whose body is serialized now, before the window: the probe times the server, not this loop. */
function post(path: string, body: unknown): () => Promise<number> {
  const bytes = Buffer.from(JSON.stringify(body));
  return async () => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", prefer: "return=minimal" },
      body: bytes,
    });
    await res.arrayBuffer();
    return res.status;
  };
}

const cases: [string, () => () => Promise<number>][] = [
  ["batch of 1,000 memories", () => post("/v1/agents/stall-a/memories", { memories: memories(1000, 0) })],
  [
    "batch of 1,000 memories with 15 KB of metadata each (15 MB)",
    () => post("/v1/agents/stall-b/memories", { memories: memories(1000, 15_000) }),
  ],
  [
    "retrieve while the batches above are enriched",
    () => post("/v1/agents/stall-a/retrieve", { query: "deploy", k: 10 }),
  ],
  // The other stalls: a query of 8,000 combining marks (3.3 s), recall at the year 1 (2.5 s).
  [
    "retrieve with a query of 8,000 combining marks",
    () => post("/v1/agents/stall-a/retrieve", { query: `a${"\u0301".repeat(7_999)}`, k: 10 }),
  ],
  [
    "retrieve with now = 0001-01-01",
    () => post("/v1/agents/stall-a/retrieve", { query: "deploy", k: 10, now: "0001-01-01T00:00:00Z" }),
  ],
  // The 25 s stall came after batches, with retrieves of these decays while enrichment ran.
  ...[1e-9, 0.5, 1, 1e-300].map((decay): [string, () => () => Promise<number>] => [
    `retrieve with decay ${decay} while enrichment runs`,
    () => post("/v1/agents/stall-a/retrieve", { query: "deploy", k: 10, decay }),
  ]),
];

console.log(
  `case | run | status | time | longest /healthz stall | this process's own longest loop delay | load (1/5/15 min)`,
);
try {
  await post("/v1/agents/stall-warm/memories", { memories: memories(10, 0) })();
  for (let run = 1; run <= RUNS; run++) {
    for (const [name, prepare] of cases) {
      const go = prepare();
      probe.reset();
      const t0 = performance.now();
      const status = await go();
      const ms = performance.now() - t0;
      const { stallMs, loopMs } = await probe.read();
      console.log(
        `${name} | ${run} | ${status} | ${(ms / 1000).toFixed(2)} s | ${stallMs.toFixed(0)} ms | ${loopMs.toFixed(0)} ms | ${load()}`,
      );
    }
  }
} finally {
  await probe.stop();
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
