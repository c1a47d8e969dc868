/**
 * Finds a memstream server for the examples: MEMSTREAM_URL, else one answering on
 * 127.0.0.1:8787, else a server started in this process with an in-memory embedded database
 * and the offline embedder (zero configuration; nothing is written to disk).
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/logger";

export async function startLocalServer(): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const given = process.env.MEMSTREAM_URL;
  if (given) return { baseUrl: given, stop: async () => {} };
  const local = "http://127.0.0.1:8787";
  if (await answers(`${local}/healthz`)) {
    console.error(`using the memstream server at ${local}`);
    return { baseUrl: local, stop: async () => {} };
  }
  console.error("no server on 127.0.0.1:8787: starting one in this process (in-memory database)…");
  const config = loadConfig({ MEMSTREAM_DATA_DIR: "memory://", PORT: "0" });
  const system = await composeSystem(config, createLogger("warn"));
  system.jobs.startWorkers();
  const app = createApp(system.app);
  const server = await new Promise<ReturnType<typeof serve>>((ready) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => ready(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise<void>((done) => server.close(() => done()));
      await system.close();
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}
