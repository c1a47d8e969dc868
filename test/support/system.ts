import { createApp } from "../../src/api/app";
import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";
import type { Announce, EventKind } from "../../src/memory/events";
import type { Metrics } from "../../src/metrics";
import type { Clock } from "../../src/providers/types";
import { TEST_DATABASE_URL, TEST_DISTRIBUTED } from "./env";
import { type Stub, startStubOpenAI } from "./stub-openai";

export type TestSystem = {
  app: ReturnType<typeof createApp>;
  system: System;
  stub: Stub;
  /** JSON request through the real app in-process. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
};

/** The environment of a test system: the test database, and the model stub at `stubUrl` as provider. */
export const testSystemEnv = (stubUrl: string): Record<string, string> => ({
  DATABASE_URL: TEST_DATABASE_URL,
  ...(TEST_DISTRIBUTED ? { MEMSTREAM_DISTRIBUTED: TEST_DISTRIBUTED } : {}),
  OPENAI_BASE_URL: stubUrl,
  OPENAI_API_KEY: "test",
  EMBEDDING_PROVIDER: "openai",
  EMBEDDING_MODEL: "stub-embed",
  EMBEDDING_DIMENSIONS: "64",
  OPENAI_MAX_RETRIES: "0",
  // The test database is shared by every test file: a system's sweep must not adopt another
  // test's pending work (scored with this test's stub, it set off reflections that consumed this
  // test's scripted replies). Tests of the sweep set their own, on a database of their own.
  MEMSTREAM_SWEEP_AFTER_MS: "86400000",
  // Tests that set LLM_MODEL count chat calls and script replies; the supersession job's questions
  // (test/jobs/supersede.test.ts turns it on) would add calls to their counts.
  MEMSTREAM_SUPERSESSION: "off",
});

/**
 * The real system against the real test database; the only fake is the model provider, an
 * OpenAI-compatible stub on 127.0.0.1 reached by the real `openai` client.
 */
export async function startTestSystem(
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    /** Wraps the system's `announce` (e.g. `without("memories.pending")`: a test's own pipeline). */
    announce?: (jobs: Announce) => Announce;
    onQuery?: (query: string) => void;
    metrics?: Metrics;
  } = {},
): Promise<TestSystem> {
  const stub = await startStubOpenAI();
  const config = loadConfig({ ...testSystemEnv(stub.url), ...opts.env });
  const system = await composeSystem(config, silentLogger, {
    clock: opts.clock,
    announce: opts.announce,
    onQuery: opts.onQuery,
    metrics: opts.metrics,
  });
  const app = createApp(system.app);
  return {
    app,
    system,
    stub,
    call: (method, path, body, headers = {}) =>
      Promise.resolve(
        app.request(path, {
          method,
          headers: { "content-type": "application/json", ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
    async close() {
      await system.close();
      await stub.close();
    },
  };
}

/** Leaves events of these kinds unannounced (their work waits for the sweep, or for the test). */
export const without =
  (...kinds: EventKind[]) =>
  (jobs: Announce): Announce =>
  (events) =>
    jobs(events.filter((e) => !kinds.includes(e.kind)));

/** A fixed clock for tests that compute expected recency. */
export const fixedClock = (iso: string): Clock & { set(iso: string): void } => {
  let t = new Date(iso);
  return { now: () => new Date(t), set: (s) => (t = new Date(s)) };
};

/** A system on embedded PGlite in memory beside `pg`, with the same model stub: both backends in one test. */
export type EmbeddedBeside = {
  system: System;
  app: ReturnType<typeof createApp>;
  /** JSON request through its app in-process. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
};

export async function startEmbeddedBeside(
  pg: TestSystem,
  opts: { clock?: Clock } = {},
): Promise<EmbeddedBeside> {
  const { DATABASE_URL: _, ...env } = testSystemEnv(pg.stub.url);
  const system = await composeSystem(
    loadConfig({ ...env, MEMSTREAM_DATA_DIR: "memory://" }),
    silentLogger,
    opts.clock ? { clock: opts.clock } : {},
  );
  const app = createApp(system.app);
  return {
    system,
    app,
    call: (method, path, body) =>
      Promise.resolve(
        app.request(path, {
          method,
          headers: { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
  };
}
