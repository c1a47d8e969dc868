import { type ChildProcess, spawn } from "node:child_process";
import type { Stub } from "./stub-openai";
import { testSystemEnv } from "./system";

/** A real entry point (`src/server.ts`, `src/worker.ts`) running as a child process. */
export type Spawned = {
  child: ChildProcess;
  /** Its JSON log lines (stderr), parsed, in order. */
  logs: Record<string, unknown>[];
  /** Resolves with the first log line whose `msg` matches; rejects if the process exits first. */
  waitForLog(msg: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
};

/** Env for a child against the test database and this test's stub (the only fake). */
export const childEnv = (stub: Stub, env: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? "",
  ...testSystemEnv(stub.url),
  // Several workers may run at once across test files: no fixed metrics port.
  MEMSTREAM_WORKER_METRICS_PORT: "0",
  ...env,
});

/** Spawns `node --import tsx <entry> [args]` as `npm start` / `npm run worker` would run it. */
export function spawnEntry(entry: string, env: NodeJS.ProcessEnv, args: string[] = []): Spawned {
  const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const logs: Record<string, unknown>[] = [];
  const listeners = new Set<() => void>();
  let buffered = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
    for (const l of listeners) l();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    logs,
    exited,
    waitForLog(msg, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = logs.find((l) => typeof l.msg === "string" && msg.test(l.msg));
          if (!hit) return;
          done();
          resolve(hit);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no log matching ${msg} within ${timeoutMs} ms; logs: ${JSON.stringify(logs)}`));
        }, timeoutMs);
        const onExit = () => {
          // Let the last stderr chunk arrive before giving up.
          setTimeout(() => {
            check();
            done();
            reject(new Error(`exited before logging ${msg}; logs: ${JSON.stringify(logs)}`));
          }, 100);
        };
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off("exit", onExit);
        };
        listeners.add(check);
        child.once("exit", onExit);
        check();
      });
    },
  };
}
