import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUZZ_SEED, uniq } from "../../support/env";
import { deepObject, hostileCases, startProbe, type Target } from "../../support/hostile";
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
  await t.system.services.text.warm();
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

describe("fuzzed hostile documents and metadata (fast-check)", () => {
  // Pieces the converters and the tokenizer have been slow or deep on, repeated and mixed.
  const atom = fc.constantFrom(
    "<div>",
    "</div>",
    "<ul><li>",
    "<b><i>",
    "<p>",
    "<!--",
    "-->",
    "<script>",
    ">",
    "*",
    "_",
    "[",
    "]",
    "(",
    "#",
    "`",
    "1. ",
    "- ",
    "\n",
    "\n\n",
    " ",
    "a",
    "é",
    "😀",
  );
  const document = fc
    .array(fc.tuple(atom, fc.integer({ min: 1, max: 2000 })), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.map(([a, n]) => a.repeat(n)).join(""));

  it("answer 201 or a 4xx naming a bound, never a 500, without blocking the loop", async () => {
    await fc.assert(
      fc.asyncProperty(document, fc.constantFrom("doc.md", "doc.html"), async (content, source) => {
        const body = JSON.stringify({ source, content, maxTokens: 64 });
        probe.reset();
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/agents/${target.agent}-fuzz/documents`, {
          method: "POST",
          headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json" },
          body,
        });
        const text = await res.text();
        const { loopMs } = await probe.read();
        const context = `${source} ${content.length} chars: ${res.status} in ${(performance.now() - t0).toFixed(0)} ms, loop ${loopMs.toFixed(0)} ms: ${text.slice(0, 160)}`;
        expect([201, 400, 413], context).toContain(res.status);
        expect(performance.now() - t0, context).toBeLessThan(ANSWER_MS);
        // The bound with room for load: a conversion on the loop took seconds.
        expect(loopMs, context).toBeLessThan(4 * LOOP_MS);
      }),
      { seed: FUZZ_SEED, numRuns: 6 },
    );
  });

  it("metadata of any nesting and width answers 201 or 400, never a 500", async () => {
    const nested = fc
      .tuple(fc.integer({ min: 1, max: 3000 }), fc.constantFrom("{", "["), fc.string())
      .map(([depth, open, leaf]) =>
        open === "{"
          ? `{"m":${deepObject(depth, JSON.stringify(leaf))}}`
          : `{"m":${"[".repeat(depth)}${JSON.stringify(leaf)}${"]".repeat(depth)}}`,
      );
    await fc.assert(
      fc.asyncProperty(nested, async (metadata) => {
        const res = await fetch(`${server.url}/v1/agents/${target.agent}-fuzz/memories`, {
          method: "POST",
          headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json" },
          body: `{"description":"x","metadata":${metadata}}`,
        });
        expect([201, 400], (await res.text()).slice(0, 200)).toContain(res.status);
      }),
      { seed: FUZZ_SEED, numRuns: 20 },
    );
  });
});
