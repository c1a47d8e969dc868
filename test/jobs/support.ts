import { Queue } from "bullmq";
import { sql } from "drizzle-orm";
import { queryRows } from "../../src/db/client";
import { JOB_NAMES } from "../../src/jobs/catalog";
import { workerConnection } from "../../src/jobs/queues";
import type { AgentStats } from "../../src/memory/agent-stats";
import type { Memory } from "../../src/memory/types";
import { TEST_REDIS_CLUSTER, TEST_REDIS_URL, uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { startTestSystem, type TestSystem } from "../support/system";

/**
 * Env for a pipeline test: real Redis under a queue prefix of its own, short timings. On a Redis
 * Cluster (TEST_REDIS_CLUSTER) the prefix is a hash tag, as the config requires there.
 */
export function pipelineEnv(prefix = uniq("mst")): Record<string, string> {
  return {
    REDIS_URL: TEST_REDIS_URL,
    ...(TEST_REDIS_CLUSTER ? { REDIS_CLUSTER: "true" } : {}),
    MEMSTREAM_QUEUE_PREFIX: TEST_REDIS_CLUSTER && !prefix.includes("{") ? `{${prefix}}` : prefix,
    MEMSTREAM_JOB_BACKOFF_MS: "50",
    MEMSTREAM_JOB_ATTEMPTS: "6",
    // Long enough that a busy CI machine (event-loop stalls over a second) does not see live jobs as
    // stalled and run them twice; the recovery tests still see a killed worker's job retried in seconds.
    MEMSTREAM_JOB_LOCK_MS: "5000",
    MEMSTREAM_CLAIM_MS: "15000",
    MEMSTREAM_SWEEP_INTERVAL_MS: "200",
    MEMSTREAM_SWEEP_AFTER_MS: "60000",
    MEMSTREAM_WORKER_CONCURRENCY: "2",
    LLM_MODEL: "stub-chat",
    // These tests count provider calls; threshold reflections and supersession questions (their
    // own tests) would add some.
    REFLECTION_THRESHOLD: "0",
    MEMSTREAM_SUPERSESSION: "off",
  };
}

/** Polls `check` until it returns a truthy value or the deadline passes (then throws with `what`). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T>,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await check();
    if (last) return last as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
}

/** GET stats through the app. */
export async function stats(t: TestSystem, agentId: string): Promise<AgentStats> {
  const res = await t.call("GET", `/v1/agents/${encodeURIComponent(agentId)}/stats`);
  return (await res.json()) as AgentStats;
}

/** Waits until every memory of the agent is ready on both fields. */
export const allReady = (t: TestSystem, agentId: string, n: number, timeoutMs?: number) =>
  waitFor(
    `${n} memories of ${agentId} ready`,
    async () => {
      const s = await stats(t, agentId);
      return s.importance.ready === n && s.embedding.ready === n ? s : null;
    },
    timeoutMs,
  );

/** POSTs `n` memories in one batch; returns their ids. */
export async function postMany(t: TestSystem, agentId: string, n: number, text = (i: number) => `note ${i}`) {
  const memories = Array.from({ length: n }, (_, i) => ({ description: text(i) }));
  const res = await t.call("POST", `/v1/agents/${encodeURIComponent(agentId)}/memories`, { memories });
  if (res.status !== 201) throw new Error(`POST ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { memories: { id: string }[] };
  return body.memories.map((m) => m.id);
}

/** GET one memory through the app. */
export async function getMemory(t: TestSystem, agentId: string, id: string): Promise<Memory> {
  const res = await t.call("GET", `/v1/agents/${encodeURIComponent(agentId)}/memories/${id}`);
  return (await res.json()) as Memory;
}

/** Vectors stored for the agent, per model. */
export async function vectorCount(t: TestSystem, agentId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.system.database.db,
    sql`SELECT count(*)::int AS n FROM memory_embeddings WHERE agent_id = ${agentId}`,
  );
  return Number(row?.n ?? 0);
}

/** Removes this test's queues from Redis (only its own prefix; never FLUSHALL). */
export async function obliterateQueues(prefix: string): Promise<void> {
  const connection = workerConnection({ url: TEST_REDIS_URL, cluster: TEST_REDIS_CLUSTER });
  try {
    for (const name of JOB_NAMES) {
      const q = new Queue(name, { connection, prefix });
      await q.obliterate({ force: true });
      await q.close();
    }
  } finally {
    connection.disconnect();
  }
}

/** Starts a test system wired to Redis, with a cleanup that erases its agents and its own queues. */
export async function startPipeline(env: Record<string, string> = {}) {
  const base = pipelineEnv();
  // A database of its own unless the test brings one: these tests count provider calls, and in the
  // shared database their sweep would also pick up other files' leftover pending memories.
  const own = env.DATABASE_URL ? null : await ownDatabase("pipeline");
  const t = await startTestSystem({
    env: { ...base, ...(own ? { DATABASE_URL: own.url } : {}), ...env },
  });
  const prefix = env.MEMSTREAM_QUEUE_PREFIX ?? base.MEMSTREAM_QUEUE_PREFIX ?? "";
  return {
    t,
    prefix,
    async close(agentIds: string[]) {
      for (const a of agentIds) await t.call("DELETE", `/v1/agents/${encodeURIComponent(a)}`);
      await t.close();
      await obliterateQueues(prefix);
      await own?.drop();
    },
  };
}
