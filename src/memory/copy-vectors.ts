import type { Writable } from "node:stream";
import type { Db } from "../db/client";
import { canCopy } from "../db/copy-support";

/** One vector to copy: its memory, model and values. */
export type CopyVector = { memoryId: string; model: string; embedding: number[] | Float32Array };

/** The part of a postgres-js connection COPY needs. */
type CopyClient = { unsafe(query: string): { writable(): Promise<Writable> } };

/**
 * Copies vectors into `memory_embeddings` with binary COPY, when the handle is a postgres-js
 * transaction to a server that takes COPY; returns false otherwise (PGlite), and the caller inserts
 * them as text.
 * Why: in pgvector's text form each float is printed by Node and parsed by Postgres, ~1 µs
 * apiece both ways — most of a 1,000 × 512-d batch's time. In binary each is 4 bytes copied.
 */
export async function copyVectors(
  tx: Pick<Db, "execute">,
  agentId: string,
  vectors: CopyVector[],
): Promise<boolean> {
  // drizzle keeps the postgres-js transaction it runs on as `session.client` (not in its types).
  const client = (tx as unknown as { session?: { client?: Partial<CopyClient> } }).session?.client;
  if (typeof client?.unsafe !== "function" || !canCopy(tx)) return false;
  const stream = await (client as CopyClient)
    .unsafe(
      "COPY memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision) FROM STDIN (FORMAT binary)",
    )
    .writable();
  await new Promise<void>((resolve, reject) => {
    stream.on("error", reject);
    stream.on("finish", resolve);
    stream.end(copyData(agentId, vectors));
  });
  return true;
}

/**
 * The whole COPY stream in one buffer: the PGCOPY signature, flags 0 and no header extension;
 * per row six fields (text as UTF-8, int4 big-endian, vector = int16 dim, int16 0, float4s);
 * a field count of -1 at the end. The float4s are converted by `Float32Array.set` and put in
 * network order by `swap32` (both native) rather than one `setFloat32` call per element.
 */
function copyData(agentId: string, vectors: CopyVector[]): Buffer {
  const agent = Buffer.from(agentId, "utf8");
  const rows = vectors.map((v) => ({
    id: Buffer.from(v.memoryId, "utf8"),
    model: Buffer.from(v.model, "utf8"),
    v,
  }));
  let size = HEADER.length + 2;
  let widest = 0;
  for (const r of rows) {
    size += 2 + 3 * 4 + r.id.length + agent.length + r.model.length + 8 + 8 + 4 * r.v.embedding.length + 8;
    widest = Math.max(widest, r.v.embedding.length);
  }
  const buf = Buffer.alloc(size);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const floats = new Float32Array(widest);
  const floatBytes = Buffer.from(floats.buffer);
  let at = HEADER.copy(buf, 0);
  const text = (t: Buffer) => {
    view.setInt32(at, t.length);
    at += 4 + t.copy(buf, at + 4);
  };
  const int4 = (n: number) => {
    view.setInt32(at, 4);
    view.setInt32(at + 4, n);
    at += 8;
  };
  for (const { id, model, v } of rows) {
    const dims = v.embedding.length;
    view.setInt16(at, 6);
    at += 2;
    text(id);
    text(agent);
    text(model);
    int4(dims);
    view.setInt32(at, 4 + 4 * dims);
    view.setInt16(at + 4, dims);
    view.setInt16(at + 6, 0);
    at += 8;
    floats.set(v.embedding);
    const bytes = floatBytes.subarray(0, 4 * dims);
    // Host order is little-endian on every platform Node supports; COPY wants big-endian.
    if (LITTLE_ENDIAN) bytes.swap32();
    at += bytes.copy(buf, at);
    int4(1);
  }
  view.setInt16(at, -1);
  return buf;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
