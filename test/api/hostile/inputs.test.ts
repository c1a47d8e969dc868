import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../../support/env";
import { hostileCases, startProbe, type Target } from "../../support/hostile";
import { listen } from "../../support/listen";
import { startTestSystem, type TestSystem } from "../../support/system";

/**
 * Issue 31's hostile inputs (test/support/hostile.ts) over real HTTP while a probe polls /healthz
 * every 50 ms: each answer is a right 2xx/4xx (naming its bound) within a few seconds, and the
 * event loop is never blocked over 250 ms.
 *
 * What is bounded, and why that: the server runs in this process, so the event loop's longest
 * delay (perf_hooks' monitor) is "a request held the loop" — plus whatever time the machine did
 * not run this process at all, which on a loaded 2-core CI box (other test files, other jobs)
 * reaches hundreds of ms with nothing sent. So each case first measures that idle delay over an
 * equal quiet window, and the bound is 250 ms or, on a machine that busy, twice the idle delay:
 * a request that holds the loop for seconds (the cases did: 18 s to 22 min) fails either
 * way, while load alone does not (and a case over the bound is sent once more: a request that
 * holds the loop does so every time, a collection or a scheduling hiccup does not). The gap between /healthz answers grows with load the same way,
 * so it is held only to saying that health kept answering. Sizes are cut down from the issue's
 * (bench/hostile.ts runs them at full size) so that even the work that stays on the loop
 * (parsing a body at all) is small, and the file runs in seconds.
 */
const SCALE = 0.05;
const LOOP_MS = 250;
const HEALTH_GAP_MS = 2_000;
const ANSWER_MS = 5_000;
const IDLE_MS = 200;

// Cases this file sends at other sizes than SCALE: the ones whose full size is already quick now,
// or that must be large to mean anything (a long run is long).
const FULL = ["memory of", "retrieve text", "mcp recall", "nested", "metadata of", "ui login"];

let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
let probe: ReturnType<typeof startProbe>;
let target: Target;

beforeAll(async () => {
  const secret = "hostile-secret";
  t = await startTestSystem({
    env: {
      MEMSTREAM_API_KEYS: "hostile-admin",
      GITHUB_WEBHOOK_SECRET: secret,
    },
  });
  // As `npm start` does before it listens: the text threads start and load the tokenizer.
  await t.system.text.warm();
  server = await listen(t.app.fetch);
  target = { url: server.url, key: "hostile-admin", agent: uniq("hostile"), secret };
  probe = startProbe(server.url);
});
afterAll(async () => {
  await probe?.stop();
  await server?.close();
  await t?.close();
});

const isFull = (name: string) => FULL.some((f) => name.includes(f));
const full = hostileCases(1).filter((c) => isFull(c.name) && !c.name.includes("200 MB"));
const scaled = hostileCases(SCALE).filter((c) => !isFull(c.name));
// The 200 MB login body at 2 MB: over the form limit all the same.
const login = hostileCases(0.01).filter((c) => c.name.startsWith("ui login body"));
describe("hostile inputs answer 2xx/4xx without blocking the event loop", () => {
  for (const c of [...full, ...scaled, ...login]) {
    it(c.name, async () => {
      const go = await c.prepare(target);
      // A request that holds the loop does so every time; a garbage collection or a moment the
      // machine gave the process no CPU does not repeat: a case over the bound is sent once more.
      const send = async () => {
        const idleMs = await probe.idle(IDLE_MS);
        probe.reset();
        const answer = await go();
        return { answer, idleMs, ...(await probe.read()) };
      };
      let sent = await send();
      if (sent.loopMs >= Math.max(LOOP_MS, 2 * sent.idleMs)) sent = await send();
      const { answer, idleMs, stallMs, loopMs, failures } = sent;
      const context = `${c.name}: ${answer.status} in ${answer.ms.toFixed(0)} ms, loop ${loopMs.toFixed(0)} ms (idle ${idleMs.toFixed(0)} ms), health gap ${stallMs.toFixed(0)} ms: ${answer.text.slice(0, 200)}`;
      expect(c.accept, context).toContain(answer.status);
      if (answer.status >= 400 || c.name.startsWith("mcp remember")) {
        if (c.names) expect(answer.text, context).toMatch(c.names);
      }
      if (answer.status >= 400) expect(answer.text, context).toMatch(/"error":\{"code":"[a-z_]+"/);
      expect(answer.ms, context).toBeLessThan(ANSWER_MS);
      expect(loopMs, context).toBeLessThan(Math.max(LOOP_MS, 2 * idleMs));
      expect(stallMs, context).toBeLessThan(HEALTH_GAP_MS);
      expect(failures, context).toBe(0);
    });
  }
});

describe("/ui answers", () => {
  it("carry a script-free Content-Security-Policy, X-Frame-Options and nosniff, also on errors", async () => {
    for (const path of ["/ui/login", "/ui", "/ui/agents/nobody-here"]) {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(res.headers.get("content-security-policy"), path).toMatch(/default-src 'none'/);
      expect(res.headers.get("content-security-policy"), path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("go back to /ui after login when `next` holds CR/LF, never to a header it would split", async () => {
    const body = new URLSearchParams({ key: "hostile-admin", next: "/ui/x\r\nSet-Cookie: evil=1" });
    const res = await fetch(`${server.url}/ui/login`, { method: "POST", body, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/ui");
    expect(res.headers.get("set-cookie") ?? "").not.toMatch(/evil/);
  });
});
