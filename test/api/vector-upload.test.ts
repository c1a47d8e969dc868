import { request } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";

// Over real HTTP (node-server): a batch with a stated length is read straight from Node's request
// and scanned piece by piece as it arrives (src/api/vector-json.ts).
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  t = await startTestSystem();
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** POSTs `body` with its Content-Length, written in `pieces` with a pause between them. */
function postInPieces(
  path: string,
  body: Buffer,
  pieces: number,
  opts: { stopAfter?: number } = {},
): Promise<{ status: number; text: string }> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    const size = Math.ceil(body.length / pieces);
    let i = 0;
    const next = () => {
      if (opts.stopAfter !== undefined && i === opts.stopAfter) {
        req.destroy();
        resolve({ status: 0, text: "" });
        return;
      }
      const piece = body.subarray(i * size, (i + 1) * size);
      i++;
      if (i * size >= body.length) req.end(piece);
      else req.write(piece, () => setTimeout(next, 5));
    };
    next();
  });
}

const MODEL = uniq("upload-16d");
const vector = (i: number) => Array.from({ length: 16 }, (_, j) => Math.sin(i * 16 + j) / 3);

describe("batch upload over HTTP, scanned as it arrives", () => {
  it("stores every vector as sent (float4), whatever the pieces it arrived in", async () => {
    const agent = uniq("upload");
    const memories = Array.from({ length: 40 }, (_, i) => ({
      description: `memory ${i} with "quotes" and [brackets]`,
      embedding: vector(i),
      embeddingModel: MODEL,
    }));
    const res = await postInPieces(
      `/v1/agents/${agent}/memories`,
      Buffer.from(JSON.stringify({ memories })),
      13,
    );
    expect(res.status).toBe(201);
    const ids = (JSON.parse(res.text) as { memories: { id: string }[] }).memories.map((m) => m.id);
    expect(ids).toHaveLength(40);
    const rows = await queryRows<{ id: string; v: string }>(
      t.system.database.db,
      sql`SELECT memory_id AS id, embedding::text AS v FROM memory_embeddings WHERE agent_id = ${agent}`,
    );
    const stored = new Map(rows.map((r) => [r.id, (JSON.parse(r.v) as number[]).map(Math.fround)]));
    ids.forEach((id, i) => {
      expect(stored.get(id)).toEqual(vector(i).map(Math.fround));
    });
  });

  it("stores large batches as sent one after another and side by side (their body buffers are reused)", async () => {
    // Bodies of 256 KB or more are read into kept buffers (vector-json.ts, BufferPool): a later
    // batch, smaller or concurrent, must never see or leave another's bytes.
    const batch = (seed: number, n: number) => ({
      agent: uniq(`upload-big-${seed}`),
      memories: Array.from({ length: n }, (_, i) => ({
        description: `batch ${seed} memory ${i}`,
        embedding: vector(seed * 10_000 + i),
        embeddingModel: MODEL,
      })),
    });
    const send = async (b: ReturnType<typeof batch>) => {
      const body = Buffer.from(JSON.stringify({ memories: b.memories }));
      expect(body.length).toBeGreaterThan(256 * 1024);
      const res = await postInPieces(`/v1/agents/${b.agent}/memories`, body, 7);
      expect(res.status).toBe(201);
    };
    const [first, smaller, left, right] = [batch(1, 1_000), batch(2, 800), batch(3, 900), batch(4, 950)];
    await send(first);
    await send(smaller);
    await Promise.all([send(left), send(right)]);
    for (const b of [first, smaller, left, right]) {
      const rows = await queryRows<{ d: string; v: string }>(
        t.system.database.db,
        sql`SELECT m.description AS d, e.embedding::text AS v FROM memories m
            JOIN memory_embeddings e ON e.agent_id = m.agent_id AND e.memory_id = m.id
            WHERE m.agent_id = ${b.agent}`,
      );
      const stored = new Map(rows.map((r) => [r.d, (JSON.parse(r.v) as number[]).map(Math.fround)]));
      expect(stored.size).toBe(b.memories.length);
      for (const m of b.memories) expect(stored.get(m.description)).toEqual(m.embedding.map(Math.fround));
    }
  });

  it("refuses malformed JSON in the one error shape, and writes nothing", async () => {
    const agent = uniq("upload-bad");
    const body = Buffer.from(
      `{"memories":[{"description":"a","embedding":[${vector(1)}],"embeddingModel":"${MODEL}"},]}`,
    );
    const res = await postInPieces(`/v1/agents/${agent}/memories`, body, 4);
    expect(res.status).toBe(400);
    expect((JSON.parse(res.text) as { error: { code: string } }).error.code).toBe("invalid_request");
    const list = await t.call("GET", `/v1/agents/${agent}/memories`);
    expect(((await list.json()) as { memories: unknown[] }).memories).toHaveLength(0);
  });

  it("survives a client that breaks off mid-body: nothing is written, the next request is served", async () => {
    const agent = uniq("upload-cut");
    const memories = Array.from({ length: 20 }, (_, i) => ({
      description: `m ${i}`,
      embedding: vector(i),
      embeddingModel: MODEL,
    }));
    await postInPieces(`/v1/agents/${agent}/memories`, Buffer.from(JSON.stringify({ memories })), 6, {
      stopAfter: 3,
    });
    const ok = await postInPieces(
      `/v1/agents/${agent}/memories`,
      Buffer.from(JSON.stringify({ memories: memories.slice(0, 2) })),
      3,
    );
    expect(ok.status).toBe(201);
    const list = await t.call("GET", `/v1/agents/${agent}/memories`);
    expect(((await list.json()) as { memories: unknown[] }).memories).toHaveLength(2);
  });
});
