/**
 * Hostile inputs of issue 31 and their relatives, shared by the hostile-input suite
 * (test/api/hostile/) and its bench (bench/hostile.ts): each case builds its request at a size
 * (`scale` 1 = the issue's own size), sends it over real HTTP, and names the answers it accepts.
 * A `Probe` polls `/healthz` meanwhile and measures the event loop's longest block.
 */
import { createHmac } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";

export type Target = {
  url: string;
  /** Bearer token of an admin key (every agent). */
  key: string;
  /** An agent id of this run (cases add suffixes). */
  agent: string;
  /** The webhook secret the service accepts. */
  secret: string;
};

export type Sent = { status: number; text: string; ms: number };

export type HostileCase = {
  name: string;
  /** Statuses that are a right answer (a 4xx naming the bound, or a 2xx where the input is fine). */
  accept: number[];
  /** What a right 4xx body names (the limit or field), checked by the suite. */
  names?: RegExp;
  /** Builds the request (outside the timed part) and returns the function that sends it. */
  prepare(t: Target): Promise<() => Promise<Sent>> | (() => Promise<Sent>);
};

const json = { "content-type": "application/json" };

/** Sends one request and reads its whole answer. */
export async function send(
  t: Target,
  method: string,
  path: string,
  body: string | Uint8Array | FormData | undefined,
  headers: Record<string, string> = json,
): Promise<Sent> {
  const t0 = performance.now();
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${t.key}`, ...headers },
    body,
    redirect: "manual",
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - t0 };
}

/** `{"a":{"a":…}}` nested `depth` deep, built as text (no recursion anywhere). */
export const deepObject = (depth: number, leaf = "1") =>
  `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}`;
/** `[[[…]]]` nested `depth` deep. */
export const deepArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

const letters = (n: number) => {
  // Pseudo-random lowercase letters: one unbroken run, no repeats a tokenizer could shortcut.
  let s = "";
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += String.fromCharCode(97 + (x % 26));
  }
  return s;
};

const mcpCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
const MCP_HEADERS = { ...json, accept: "application/json, text/event-stream" };

const doc = (t: Target, source: string, content: string, extra = "") =>
  `{"source":${JSON.stringify(source)},"content":${JSON.stringify(content)}${extra}}`;

/** Each case of the issue, and relatives, at `scale` of the size (min 1 unit). */
export function hostileCases(scale = 1): HostileCase[] {
  const n = (full: number) => Math.max(1, Math.round(full * scale));
  const agentPath = (t: Target, suffix: string) => `/v1/agents/${t.agent}-${suffix}`;
  const importDoc =
    (name: string, source: string, content: () => string): HostileCase["prepare"] =>
    (t) => {
      const body = doc(t, source, content());
      return () => send(t, "POST", `${agentPath(t, "docs")}/documents`, body);
    };
  const cases: HostileCase[] = [
    // HTML import: nesting that turndown walked recursively (67 s, then 500 in the issue).
    {
      name: `html <ul><li> x ${n(2000)}`,
      accept: [201, 400, 413],
      names: /depth|nest|element/i,
      prepare: importDoc("", "ul.html", () => `${"<ul><li>".repeat(n(2000))}x`),
    },
    {
      name: `html <b><i> x ${n(2000)}`,
      accept: [201, 400, 413],
      names: /depth|nest|element/i,
      prepare: importDoc("", "bi.html", () => `${"<b><i>".repeat(n(2000))}x`),
    },
    {
      name: `html <div> x ${n(181_727)}`,
      accept: [201, 400, 413],
      names: /depth|nest|element/i,
      prepare: importDoc("", "div.html", () => "<div>".repeat(n(181_727))),
    },
    // Markdown import: symbol runs the tokenizer was quadratic in, and the parser's recursion.
    ...(
      [
        ["#", () => "#".repeat(n(100_000))],
        ["<", () => "<".repeat(n(100_000))],
        ["[", () => "[".repeat(n(2_000_000))],
        [">", () => ">".repeat(n(100_000))],
        ["*a*", () => `${"*".repeat(n(50_000))}a${"*".repeat(n(50_000))}`],
      ] as const
    ).map(
      ([what, content]): HostileCase => ({
        name: `markdown ${what} x ${content().length}`,
        accept: [201, 400, 413],
        names: /run|depth|nest/i,
        prepare: importDoc("", `md-${what}.md`, content),
      }),
    ),
    // One memory of an unbroken run, then a text retrieve and an MCP recall (21 s / 23 s / 22 s).
    {
      name: `memory of ${n(8000)} letters, no space`,
      accept: [201],
      prepare(t) {
        const body = JSON.stringify({
          memories: [
            { description: letters(n(8000)), importance: 5 },
            { description: `b${letters(n(8000) - 1)}`, importance: 5 },
          ],
        });
        return () => send(t, "POST", `${agentPath(t, "runs")}/memories`, body);
      },
    },
    {
      name: `retrieve text maxTokens 2000 over ${n(8000)}-letter memories`,
      accept: [200],
      prepare(t) {
        const body = JSON.stringify({ query: "anything", format: "text", maxTokens: 2000 });
        return () => send(t, "POST", `${agentPath(t, "runs")}/retrieve`, body);
      },
    },
    {
      name: `mcp recall over ${n(8000)}-letter memories`,
      accept: [200],
      prepare(t) {
        const body = mcpCall("recall", { agentId: `${t.agent}-runs`, query: "anything", maxTokens: 2000 });
        return () => send(t, "POST", "/mcp", body, MCP_HEADERS);
      },
    },
    // Body scanning: whitespace-padded bodies with a stated length (quadratic before).
    ...[2, 4, 8].map(
      (mib): HostileCase => ({
        name: `memories body padded to ${Math.max(0.0625, mib * scale)} MiB`,
        accept: [201, 400, 413],
        prepare(t) {
          const size = Math.max(64 * 1024, Math.round(mib * scale * 1024 * 1024));
          // Blanks after a string: the scanner rescanned them from the string's start per chunk.
          const head = '{"memories":[{"description":"padded"';
          const tail = ',"importance":3}]}';
          const body = Buffer.from(`${head}${" ".repeat(size - head.length - tail.length)}${tail}`);
          return () => send(t, "POST", `${agentPath(t, "pad")}/memories`, body);
        },
      }),
    ),
    {
      name: `memories body: one escaped-quote string of ${Math.max(0.0625, 31.5 * scale)} MiB`,
      accept: [400, 413],
      names: /description|characters|body/i,
      prepare(t) {
        const size = Math.max(64 * 1024, Math.round(31.5 * scale * 1024 * 1024));
        const head = '{"memories":[{"description":"';
        const body = Buffer.from(`${head}${'\\"'.repeat((size - head.length - 4) >> 1)}"}]}`);
        return () => send(t, "POST", `${agentPath(t, "pad")}/memories`, body);
      },
    },
    // Nesting 10,000 deep everywhere JSON is accepted (500 and a stack overflow before).
    ...(
      [
        [
          "memories metadata",
          "memories",
          (d: string) => `{"memories":[{"description":"x","metadata":${d}}]}`,
        ],
        ["retrieve filters", "retrieve", (d: string) => `{"query":"x","filters":{"metadata":${d}}}`],
        ["document metadata", "documents", (d: string) => `{"source":"d.md","content":"x","metadata":${d}}`],
        ["outcome metadata", "outcomes", (d: string) => `{"task":"t","success":true,"metadata":${d}}`],
      ] as const
    ).map(
      ([what, route, body]): HostileCase => ({
        name: `${what} nested ${n(10_000)} deep`,
        accept: [400],
        names: /deeper|depth|nest/i,
        prepare(t) {
          const text = body(deepObject(n(10_000)));
          return () => send(t, "POST", `${agentPath(t, "deep")}/${route}`, text);
        },
      }),
    ),
    {
      name: `body array nested ${n(10_000)} deep`,
      accept: [400],
      prepare(t) {
        const text = `{"memories":${deepArray(n(10_000))}}`;
        return () => send(t, "POST", `${agentPath(t, "deep")}/memories`, text);
      },
    },
    {
      name: `signed webhook nested ${n(10_000)} deep`,
      accept: [202, 400],
      prepare(t) {
        const body = `{"zen":"x","hook_id":1,"deep":${deepObject(n(10_000))}}`;
        const signature = `sha256=${createHmac("sha256", t.secret).update(body).digest("hex")}`;
        return () =>
          send(t, "POST", "/webhooks/github", body, {
            ...json,
            "x-github-event": "ping",
            "x-github-delivery": `deep-${t.agent}-${Math.random().toString(36).slice(2)}`,
            "x-hub-signature-256": signature,
          });
      },
    },
    {
      name: `mcp remember metadata nested ${n(10_000)} deep`,
      accept: [200],
      names: /deeper|depth|nest/i,
      prepare(t) {
        const args = `{"agentId":"${t.agent}-deep","description":"x","metadata":${deepObject(n(10_000))}}`;
        const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":${args}}}`;
        return () => send(t, "POST", "/mcp", body, MCP_HEADERS);
      },
    },
    // Metadata limit in bytes: 16,000 "€" is 48 KB.
    {
      name: "metadata of 16,000 € (48 KB)",
      accept: [400],
      names: /metadata|bytes/i,
      prepare(t) {
        const body = JSON.stringify({
          memories: [{ description: "x", metadata: { e: "€".repeat(16_000) } }],
        });
        return () => send(t, "POST", `${agentPath(t, "meta")}/memories`, body);
      },
    },
    // /ui/login: a body without a limit, malformed multipart, CR/LF in `next`.
    {
      name: `ui login body of ${Math.max(1, Math.round(200 * scale))} MB`,
      accept: [303, 413],
      prepare(t) {
        const body = Buffer.alloc(Math.max(1, Math.round(200 * scale)) * 1_000_000, "a");
        return () =>
          send(t, "POST", "/ui/login", body, { "content-type": "application/x-www-form-urlencoded" });
      },
    },
    {
      name: "ui login malformed multipart",
      accept: [400],
      prepare(t) {
        const body = '--x\r\nContent-Disposition: form-data; name="key"\r\n\r\nabc'; // no closing boundary
        return () =>
          send(t, "POST", "/ui/login", body, { "content-type": "multipart/form-data; boundary=x" });
      },
    },
    {
      name: "ui login CR/LF in next",
      accept: [303, 400],
      prepare(t) {
        const body = new URLSearchParams({ key: t.key, next: "/ui/\r\nSet-Cookie: x=1" }).toString();
        return () =>
          send(t, "POST", "/ui/login", body, { "content-type": "application/x-www-form-urlencoded" });
      },
    },
  ];
  return cases;
}

/**
 * Polls `/healthz` every `everyMs` and watches the event loop of this process (where the
 * in-process server runs): `stallMs` is the longest gap between two health answers beyond the
 * poll pause, `loopMs` the event loop's longest delay (a blocked loop; other processes' CPU use
 * barely moves it, unlike the gap).
 */
export function startProbe(url: string, everyMs = 50) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let running = true;
  let last = performance.now();
  let stallMs = 0;
  let failures = 0;
  let answers = 0;
  const done = (async () => {
    while (running) {
      try {
        const res = await fetch(`${url}/healthz`);
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      const now = performance.now();
      stallMs = Math.max(stallMs, now - last - everyMs);
      last = now;
      answers++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    /** Starts a new measurement window. */
    reset() {
      loop.reset();
      last = performance.now();
      stallMs = 0;
      failures = 0;
      answers = 0;
    },
    /** The event loop's longest delay over `ms` with nothing sent: what the machine's load alone causes now. */
    async idle(ms: number): Promise<number> {
      loop.reset();
      await new Promise((r) => setTimeout(r, ms));
      return loop.max / 1e6;
    },
    /** The window's figures, once two more health answers came (a stall shows only when one ends). */
    async read() {
      const until = answers + 2;
      while (answers < until && running) await new Promise((r) => setTimeout(r, 10));
      return { stallMs, loopMs: loop.max / 1e6, failures, answers };
    },
    async stop() {
      running = false;
      loop.disable();
      await done;
    },
  };
}
