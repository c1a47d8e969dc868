import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";
import type { AgentStats } from "../../src/memory/agent-stats";
import type { Memory } from "../../src/memory/types";
import { type Stub, startStubOpenAI } from "../support/stub-openai";
import { waitFor } from "./support";

// Zero-config: no REDIS_URL, embedded PGlite; the same processors run in an in-process queue.
let system: System | null = null;
let stub: Stub | null = null;
afterEach(async () => {
  await system?.close();
  await stub?.close();
  system = null;
});

describe("zero-config enrichment (no Redis, PGlite)", () => {
  it("fills in importance and embeddings, and records an unusable reply as failed", async () => {
    stub = await startStubOpenAI();
    const config = loadConfig({
      MEMSTREAM_DATA_DIR: "memory://",
      OPENAI_BASE_URL: stub.url,
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_MODEL: "stub-embed",
      LLM_MODEL: "stub-chat",
      OPENAI_MAX_RETRIES: "0",
      MEMSTREAM_JOB_BACKOFF_MS: "20",
      // Counts provider calls: keep threshold reflections (tested on their own) out of it.
      REFLECTION_THRESHOLD: "0",
    });
    system = await composeSystem(config, silentLogger);
    expect(system.jobs.inProcess).not.toBeNull();
    system.jobs.startWorkers();
    const app = createApp(system.app);
    const post = (body: unknown) =>
      app.request("/v1/agents/solo/memories", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const memories = Array.from({ length: 40 }, (_, i) => ({ description: `thing ${i} broke` }));
    expect((await post({ memories })).status).toBe(201);
    const s = await waitFor("40 ready", async () => {
      const st = (await (await app.request("/v1/agents/solo/stats")).json()) as AgentStats;
      return st.importance.ready === 40 && st.embedding.ready === 40 ? st : null;
    });
    expect(s.total).toBe(40);
    expect(stub.calls.embeddings).toBe(1);

    stub.setMode({ kind: "nonsense" });
    const one = (await (await post({ description: "coffee" })).json()) as Memory;
    const failed = await waitFor("failed", async () => {
      const m = (await (await app.request(`/v1/agents/solo/memories/${one.id}`)).json()) as Memory;
      return m.status.importance === "failed" ? m : null;
    });
    expect(failed.errors?.importance).toContain("very important!");
    // Opening embedded PGlite and migrating it takes most of this, ~25 s on a loaded machine.
  }, 120_000);
});
