import { execFileSync } from "node:child_process";
import { Queue } from "bullmq";
import postgres from "postgres";
import { JOB_NAMES } from "../../src/jobs/catalog";
import { workerConnection } from "../../src/jobs/queues";
import { TEST_REDIS_CLUSTER, TEST_REDIS_URL } from "../support/env";
import type { TestSystem } from "../support/system";

/**
 * The cluster drills' tools: the local Citus cluster's script (scripts/citus-cluster.sh, in the
 * cluster directory scripts/test-cluster-drills.sh chose), a connection to the coordinator for
 * Citus' views, and agents writing and retrieving through the app while the cluster changes.
 */

/** Runs scripts/citus-cluster.sh with these arguments; returns what it printed. */
export function citus(...args: string[]): string {
  return execFileSync("bash", ["scripts/citus-cluster.sh", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A small pool on the coordinator, for Citus' views and functions (not the app's pool). */
export function coordinator(url: string) {
  return postgres(url, { max: 2, onnotice: () => {}, connect_timeout: 10 });
}

/** The port of the worker holding the agent's shard of `memories`. */
export async function workerPortOf(sql: postgres.Sql, agentId: string): Promise<number> {
  const [row] = await sql<{ port: number }[]>`
    SELECT nodeport AS port FROM citus_shards
    WHERE table_name = 'memories'::regclass
      AND shardid = get_shard_id_for_distribution_column('memories', ${agentId}::text)`;
  if (!row) throw new Error(`no shard for ${agentId}`);
  return Number(row.port);
}

type Op = "write" | "retrieve";
type Sample = {
  agent: string;
  op: Op;
  phase: string;
  status: number;
  ms: number;
  code?: string;
  message?: string;
};

/** The pth percentile (nearest rank) of the values, 0 for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Agents that each write one memory and retrieve, every `pauseMs`, until stopped: a modest load
 * (a few requests per second) on the shared machine. Every answer is kept with the phase it
 * started in; a 201's memory id is an acknowledged write.
 */
export function startLoad(t: TestSystem, agents: string[], pauseMs = 400) {
  const samples: Sample[] = [];
  const acked = new Map<string, string[]>(agents.map((a) => [a, []]));
  let phase = "before";
  let stopped = false;
  const timed = async (agent: string, op: Op, path: string, body: unknown) => {
    const started = phase;
    const t0 = performance.now();
    const res = await t.call("POST", path, body);
    const ms = performance.now() - t0;
    const json = (await res.json().catch(() => null)) as {
      id?: string;
      error?: { code: string; message: string };
    } | null;
    samples.push({
      agent,
      op,
      phase: started,
      status: res.status,
      ms,
      code: json?.error?.code,
      message: json?.error?.message,
    });
    return { status: res.status, json };
  };
  const loop = async (agent: string) => {
    const path = `/v1/agents/${encodeURIComponent(agent)}`;
    for (let i = 0; !stopped; i++) {
      const w = await timed(agent, "write", `${path}/memories`, { description: `${agent} saw thing ${i}` });
      if (w.status === 201 && w.json?.id) acked.get(agent)?.push(w.json.id);
      await timed(agent, "retrieve", `${path}/retrieve`, { query: `thing ${i}`, k: 5, touch: false });
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  const running = Promise.all(agents.map(loop));
  return {
    samples,
    acked,
    setPhase(p: string) {
      phase = p;
    },
    async stop() {
      stopped = true;
      await running;
    },
    /** Figures of one phase, optionally for some agents only. */
    summary(p: string, only?: string[]) {
      const of = samples.filter((s) => s.phase === p && (!only || only.includes(s.agent)));
      const ok = (s: Sample) => s.status === 200 || s.status === 201;
      const writes = of.filter((s) => s.op === "write");
      const retrieves = of.filter((s) => s.op === "retrieve");
      return {
        writes: writes.length,
        acknowledged: writes.filter(ok).length,
        retrieves: retrieves.length,
        errors: of.filter((s) => !ok(s)).length,
        statuses: [...new Set(of.filter((s) => !ok(s)).map((s) => `${s.status} ${s.code ?? ""}`))],
        writeP99: Math.round(
          percentile(
            writes.filter(ok).map((s) => s.ms),
            99,
          ),
        ),
        retrieveP99: Math.round(
          percentile(
            retrieves.filter(ok).map((s) => s.ms),
            99,
          ),
        ),
      };
    },
  };
}

/** How many times each acknowledged id is stored (each must be exactly once), for these agents. */
export async function storedCounts(sql: postgres.Sql, acked: Map<string, string[]>) {
  let found = 0;
  const wrong: string[] = [];
  for (const [agent, ids] of acked) {
    const rows = await sql<{ id: string; n: number }[]>`
      SELECT id, count(*)::int AS n FROM memories WHERE agent_id = ${agent} GROUP BY id`;
    const n = new Map(rows.map((r) => [r.id, r.n]));
    for (const id of ids) {
      if (n.get(id) === 1) found++;
      else wrong.push(`${agent}/${id}: ${n.get(id) ?? 0}`);
    }
  }
  return { acknowledged: [...acked.values()].reduce((s, ids) => s + ids.length, 0), found, wrong };
}

/** The load average, for the printed figures (the machine's cores are shared). */
export function loadAverage(): string {
  return execFileSync("uptime", { encoding: "utf8" })
    .trim()
    .replace(/.*load average: /, "");
}

/** Jobs left in this prefix's queues: still to run (waiting, active, delayed) and given up (failed). */
export async function queueDepth(prefix: string, url = TEST_REDIS_URL, cluster = TEST_REDIS_CLUSTER) {
  const connection = workerConnection({ url, cluster });
  let pending = 0;
  let failed = 0;
  try {
    for (const name of JOB_NAMES) {
      const q = new Queue(name, { connection, prefix });
      const c = await q.getJobCounts("waiting", "active", "delayed", "prioritized", "failed");
      pending += (c.waiting ?? 0) + (c.active ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0);
      failed += c.failed ?? 0;
      await q.close();
    }
  } finally {
    connection.disconnect();
  }
  return { pending, failed };
}

/** The node name (worker1, ...) of the instance on this port. */
export function nodeOnPort(port: number): string {
  for (let i = 1; i < 10; i++) {
    const name = `worker${i}`;
    try {
      if (Number(citus("port", name)) === port) return name;
    } catch {
      break;
    }
  }
  throw new Error(`no worker on port ${port}`);
}
