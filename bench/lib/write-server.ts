/**
 * The service as `npm start` runs it (real HTTP on a local port, an API key, no workers), for
 * bench/writes.ts, which starts it as a child process so the client's work is not on the server's
 * event loop and a CPU profile covers the server alone. Prints `port N` once listening; exits on
 * SIGTERM or a closed stdin. Over the IPC channel, `{ profile: "start" }` starts the V8 profiler
 * and `{ profile: "stop", file }` writes what it sampled (so a profile covers only timed requests);
 * `{ cpu: true }` answers the process's CPU time so far (user + system, µs).
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "../../src/api/app";
import { composeSystem } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";

const config = loadConfig({
  DATABASE_URL: process.env.DATABASE_URL,
  EMBEDDING_PROVIDER: "offline",
  MEMSTREAM_API_KEYS: "bench-writes-key",
  MEMSTREAM_WORKERS: "off",
});
const system = await composeSystem(config, silentLogger);
const server = serve({ fetch: createApp(system.app).fetch, port: 0, hostname: "127.0.0.1" });
await new Promise((ok) => server.once("listening", ok));
console.log(`port ${(server.address() as AddressInfo).port}`);

const inspector = new Session();
inspector.connect();
process.on("message", async (m: { profile?: "start" | "stop"; file?: string; cpu?: true }) => {
  if (m.cpu) {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
    return;
  }
  if (m.profile === "start") {
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.start");
  } else {
    const { profile } = await inspector.post("Profiler.stop");
    writeFileSync(m.file as string, JSON.stringify(profile));
  }
  process.send?.({ profiled: m.profile });
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  server.close();
  await system.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
