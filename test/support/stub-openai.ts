import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { STUB_DIMENSIONS, stubEmbedding, stubImportanceReply } from "./stub-vectors.js";

export { STUB_DIMENSIONS, stubEmbedding, stubImportanceReply } from "./stub-vectors.js";

export type StubMode =
  | { kind: "ok" }
  | { kind: "slow"; ms: number }
  | { kind: "status"; status: 429 | 500; times?: number; retryAfterSeconds?: number }
  | { kind: "nonsense" };

/** A scripted chat reply: the text to answer, or an HTTP error for that one call. */
export type ScriptedReply = string | { status: 429 | 500 };

export type StubRequest = { method: string; path: string; body: unknown };

export type Stub = {
  /** Base URL for the `openai` client, ending in `/v1`. */
  url: string;
  /** Requests per endpoint, counting every attempt (failed ones too), so retries are visible. */
  calls: { embeddings: number; chat: number; models: number };
  /** Every request in arrival order, with its parsed JSON body. */
  requests: StubRequest[];
  setMode(mode: StubMode): void;
  /** Queues chat replies (or one-call errors), used in order before the default importance reply. */
  scriptChat(replies: ScriptedReply[]): void;
  /**
   * Queues replies used only for chat requests whose prompt matches `when` (checked before the
   * general script), so scripted reflection answers are not consumed by importance calls.
   */
  scriptChatWhen(when: RegExp, replies: ScriptedReply[]): void;
  /**
   * Holds the next chat request whose prompt matches `when` until `release()` (or until its client
   * goes away, e.g. a killed worker); `arrived` resolves when it is being held. Later ones pass.
   */
  holdNextChat(when: RegExp): { arrived: Promise<void>; release(): void };
  /** As `holdNextChat`, for the next embeddings request whose input texts match `when`. */
  holdNextEmbedding(when: RegExp): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
};

/** Starts an OpenAI-compatible HTTP stub on 127.0.0.1 at a free port. */
export async function startStubOpenAI(): Promise<Stub> {
  let mode: StubMode = { kind: "ok" };
  let statusLeft = Number.POSITIVE_INFINITY;
  const script: ScriptedReply[] = [];
  const keyed: { when: RegExp; replies: ScriptedReply[] }[] = [];
  type Hold = { path: string; when: RegExp; arrived: () => void; gate: Promise<void> };
  const holds: Hold[] = [];
  const addHold = (path: string, when: RegExp) => {
    let arrived: () => void = () => {};
    let release: () => void = () => {};
    holds.push({ path, when, arrived: () => arrived(), gate: new Promise<void>((r) => (release = r)) });
    return { arrived: new Promise<void>((r) => (arrived = r)), release: () => release() };
  };
  /** Waits while a hold on `path` matches `text`; false when the client went away meanwhile. */
  const held = async (path: string, text: string, res: ServerResponse): Promise<boolean> => {
    const i = holds.findIndex((h) => h.path === path && h.when.test(text));
    if (i < 0) return true;
    const [hold] = holds.splice(i, 1);
    hold?.arrived();
    await Promise.race([hold?.gate, new Promise((r) => res.once("close", r))]);
    return !res.destroyed; // the client died while held: it consumes no reply
  };
  const stub: Omit<Stub, "url" | "close"> = {
    calls: { embeddings: 0, chat: 0, models: 0 },
    requests: [],
    setMode(m) {
      mode = m;
      statusLeft = m.kind === "status" ? (m.times ?? Number.POSITIVE_INFINITY) : 0;
    },
    scriptChat(replies) {
      script.push(...replies);
    },
    scriptChatWhen(when, replies) {
      keyed.push({ when, replies: [...replies] });
    },
    holdNextChat: (when) => addHold("/v1/chat/completions", when),
    holdNextEmbedding: (when) => addHold("/v1/embeddings", when),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://stub").pathname;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const body: unknown = raw ? JSON.parse(raw) : null;
    stub.requests.push({ method: req.method ?? "GET", path, body });
    if (path === "/v1/embeddings") stub.calls.embeddings++;
    else if (path === "/v1/chat/completions") stub.calls.chat++;
    else if (path === "/v1/models") stub.calls.models++;
    else
      return send(res, 404, {
        error: { message: `no route ${path}`, type: "invalid_request_error", param: null, code: null },
      });

    if (mode.kind === "slow") await delay(mode.ms, res);
    if (mode.kind === "status" && statusLeft > 0) {
      statusLeft--;
      const headers: Record<string, string> =
        mode.retryAfterSeconds === undefined ? {} : { "retry-after": String(mode.retryAfterSeconds) };
      const type = mode.status === 429 ? "rate_limit_exceeded" : "server_error";
      return send(
        res,
        mode.status,
        { error: { message: `stub ${mode.status}`, type, param: null, code: null } },
        headers,
      );
    }
    if (path === "/v1/models")
      return send(res, 200, {
        object: "list",
        data: [{ id: "stub-model", object: "model", created: 0, owned_by: "stub" }],
      });
    if (path === "/v1/embeddings") {
      if (!(await held(path, JSON.stringify((body as EmbeddingsBody).input), res))) return;
      return send(res, 200, embeddings(body as EmbeddingsBody));
    }
    const prompt = JSON.stringify((body as { messages?: unknown }).messages ?? "");
    if (!(await held(path, prompt, res))) return;
    const match = keyed.find((k) => k.replies.length > 0 && k.when.test(prompt));
    // The supersession prompt (src/memory/supersession/) is answered "none replaced" unless a test
    // scripted it with scriptChatWhen: it never takes replies scripted for other prompts.
    const supersession = /REPLACED by the new one/.test(prompt);
    const next =
      mode.kind === "nonsense"
        ? "very important!"
        : (match?.replies.shift() ?? (supersession ? '{"replaced": []}' : script.shift()));
    if (typeof next === "object") {
      return send(res, next.status, {
        error: { message: `stub ${next.status}`, type: "server_error", param: null, code: null },
      });
    }
    return send(res, 200, chat(body as ChatBody, next));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        send(res, 500, { error: { message: String(err), type: "server_error", param: null, code: null } });
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    ...stub,
    url: `http://127.0.0.1:${port}/v1`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

type EmbeddingsBody = {
  model: string;
  input: string | string[];
  dimensions?: number;
  encoding_format?: string;
};
type ChatBody = { model: string; messages: { role: string; content: string }[] };

function embeddings(body: EmbeddingsBody) {
  const input = typeof body.input === "string" ? [body.input] : body.input;
  const dims = body.dimensions ?? STUB_DIMENSIONS;
  const tokens = input.reduce((n, t) => n + t.split(/\s+/).length, 0);
  return {
    object: "list",
    model: body.model,
    data: input.map((text, index) => {
      const v = stubEmbedding(text, dims);
      // The SDK asks for base64 unless told otherwise: little-endian float32, as OpenAI sends.
      const embedding =
        body.encoding_format === "base64" ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v;
      return { object: "embedding", index, embedding };
    }),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

function chat(body: ChatBody, reply: string | undefined) {
  const prompt = body.messages.map((m) => m.content).join("\n");
  const content = reply ?? stubImportanceReply(body.messages.at(-1)?.content ?? "");
  const promptTokens = prompt.split(/\s+/).length;
  const completionTokens = content.split(/\s+/).length;
  return {
    id: "chatcmpl-stub",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: null },
        finish_reason: "stop",
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

function send(
  res: ServerResponse,
  status: number,
  json: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return; // the client gave up (timeout) while we were slow
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(json));
}

/** Waits `ms`, or less if the client disconnects first, so a closed stub leaves no timers behind. */
function delay(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    res.once("close", () => {
      clearTimeout(t);
      resolve();
    });
  });
}
