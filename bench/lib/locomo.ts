/**
 * LoCoMo dev data for `npm run eval:locomo`: reading it (never copied into this repository, its
 * licence forbids it), the paper's memory text, loading one agent per conversation through the
 * API, and the retrieval metrics.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type postgres from "postgres";
import { createApp } from "../../src/api/app";
import type { System } from "../../src/compose";
import { createOfflineImportanceScorer } from "../../src/providers/importance/offline-scorer";
import type { Embedder } from "../../src/providers/types";

export type Turn = {
  conversation_id: string;
  dia_id: string;
  speaker: string;
  text: string;
  image_caption?: string;
  timestamp: string;
};

export type Query = {
  query_id: string;
  conversation_id: string;
  question: string;
  category: number;
  category_name: string;
  evidence: string[];
  now: string;
};

/** POSTs JSON to the in-process app; throws on a non-2xx answer. */
export type Call = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** JSON requests through a system's app in-process; a status of 300 or more throws with the body. */
export function appCall(system: System): Call {
  const app = createApp(system.app);
  return async (method, path, body) => {
    const res = await app.request(path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);

/**
 * The LoCoMo data folder from LOCOMO_DIR: `observations.jsonl` (one turn a line) and
 * `queries.jsonl` (one question a line with its gold evidence), made from the public LoCoMo
 * release (github.com/snap-research/locomo; its licence forbids copying it into this repository).
 * Exits with a message saying so when it is not set.
 */
export function locomoDir(): string {
  const dir = process.env.LOCOMO_DIR;
  if (!dir) {
    console.error(
      "LOCOMO_DIR is not set: point it at a folder holding LoCoMo's observations.jsonl and queries.jsonl " +
        "(made from github.com/snap-research/locomo, whose licence keeps it out of this repository).",
    );
    process.exit(2);
  }
  return dir;
}

/** Reads the turns and questions from `dir`, and a fingerprint of the turns for cache keys. */
export function readLocomo(dir: string): { turns: Turn[]; queries: Query[]; fingerprint: string } {
  const raw = readFileSync(resolve(dir, "observations.jsonl"));
  return {
    turns: readJsonl<Turn>(resolve(dir, "observations.jsonl")),
    queries: readJsonl<Query>(resolve(dir, "queries.jsonl")),
    fingerprint: createHash("sha256").update(raw).digest("hex").slice(0, 10),
  };
}

/** The memory text the LoCoMo paper retrieves over: `<speaker> said, "<text>"` [+ ` and shared <caption>`]. */
export const memoryText = (t: Turn) =>
  `${t.speaker} said, "${t.text}"${t.image_caption ? ` and shared ${t.image_caption}` : ""}`;

/**
 * Stores every turn in its conversation's agent with its own timestamp, offline vector and
 * offline importance, unless that agent already holds all of its turns (a database kept from an
 * earlier run with the same data and embedder; a partial load is erased and redone). The
 * importance scorer shares a memoizing embedder with the vectors, so each turn is embedded once.
 */
export async function loadTurns(
  call: Call,
  embedder: Embedder,
  turns: Turn[],
  agentOf: (conv: string) => string,
): Promise<{ loaded: number; reused: number }> {
  const byConv = groupBy(turns, (t) => t.conversation_id);
  const todo: Turn[] = [];
  let reused = 0;
  for (const [conv, list] of byConv) {
    const path = `/v1/agents/${encodeURIComponent(agentOf(conv))}`;
    const stats = (await call("GET", `${path}/stats`)) as { total: number };
    if (stats.total === list.length) reused += list.length;
    else {
      if (stats.total > 0) await call("DELETE", path);
      todo.push(...list);
    }
  }
  const cache = new Map<string, number[]>();
  const memo: Embedder = {
    ...embedder,
    async embed(texts) {
      const missing = [...new Set(texts.filter((x) => !cache.has(x)))];
      const vectors = await embedder.embed(missing);
      for (const [i, x] of missing.entries()) cache.set(x, vectors[i] as number[]);
      return texts.map((x) => cache.get(x) as number[]);
    },
  };
  const importance = createOfflineImportanceScorer({ embedder: memo });
  for (let i = 0; i < todo.length; i += 200) {
    const batch = todo.slice(i, i + 200);
    const texts = batch.map(memoryText);
    const vectors = await memo.embed(texts);
    const scores = await importance.score(texts);
    const groups = groupBy(
      batch.map((t, j) => ({ t, j })),
      ({ t }) => t.conversation_id,
    );
    for (const [conv, items] of groups) {
      await call("POST", `/v1/agents/${encodeURIComponent(agentOf(conv))}/memories`, {
        memories: items.map(({ t, j }) => ({
          description: texts[j],
          createdAt: t.timestamp,
          embedding: vectors[j],
          importance: scores[j],
          metadata: { dia_id: t.dia_id },
        })),
      });
    }
  }
  return { loaded: todo.length, reused };
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) {
    const list = out.get(key(x));
    if (list) list.push(x);
    else out.set(key(x), [x]);
  }
  return out;
}

export type Scores = { r5: number; r10: number; r25: number; ndcg10: number };

/** recall@k = share of the evidence ids in the top k; NDCG@10 with binary gains. */
export function score(ranked: string[], evidence: string[]): Scores {
  const gold = new Set(evidence);
  const recall = (k: number) => ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
  const dcg = ranked.slice(0, 10).reduce((s, id, i) => s + (gold.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(10, gold.size); i++) ideal += 1 / Math.log2(i + 2);
  return { r5: recall(5), r10: recall(10), r25: recall(25), ndcg10: dcg / ideal };
}

/**
 * Copies an agent's memories and vectors from a PostgreSQL database (`sql`) into another system's
 * database through its API, in batches of 500, vectors stored under `modelId`.
 */
export async function copyAgent(
  sql: postgres.Sql,
  agent: string,
  to: System,
  modelId: string,
): Promise<void> {
  const call = appCall(to);
  const rows = await sql<
    { id: string; description: string; created_at: Date; importance: number | null; embedding: string }[]
  >`SELECT m.id, m.description, m.created_at, m.importance, e.embedding::text AS embedding
    FROM memories m JOIN memory_embeddings e ON e.agent_id = m.agent_id AND e.memory_id = m.id
    WHERE m.agent_id = ${agent} ORDER BY m.created_at`;
  for (let i = 0; i < rows.length; i += 500) {
    await call("POST", `/v1/agents/${encodeURIComponent(agent)}/memories`, {
      memories: rows.slice(i, i + 500).map((r) => ({
        description: r.description,
        createdAt: r.created_at.toISOString(),
        ...(r.importance === null ? {} : { importance: r.importance }),
        embedding: JSON.parse(r.embedding) as number[],
        embeddingModel: modelId,
      })),
    });
  }
}
