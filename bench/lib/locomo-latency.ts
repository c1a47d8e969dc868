/**
 * The start both latency benches on LoCoMo share (bench/default-latency.ts, bench/explore/relevance-sql.ts):
 * the database `npm run eval:locomo` loaded (EVAL_DATABASE_URL), the questions, the system on it
 * with the offline embedder, and the agent to rank: one conversation (`CONV`, default conv-43) or,
 * with `SCALE=n`, the copy of every loaded turn n times (built by default-latency.ts).
 */
import { composeSystem } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";
import { locomoDir, readLocomo } from "./locomo";

export async function openLocomoLatency() {
  const dir = locomoDir();
  const url = process.env.EVAL_DATABASE_URL;
  if (!url) throw new Error("set EVAL_DATABASE_URL to the database npm run eval:locomo loaded");
  const { queries, fingerprint } = readLocomo(dir);
  const system = await composeSystem(
    loadConfig({ DATABASE_URL: url, MEMSTREAM_DATA_DIR: "memory://", EMBEDDING_PROVIDER: "offline" }),
    silentLogger,
  );
  const conv = process.env.CONV ?? "conv-43";
  const scale = Number(process.env.SCALE ?? 0);
  const source = `locomo-${fingerprint}-${system.providers.embedder.modelId}:`;
  const agent = scale > 0 ? `${source}scaled-${scale}` : `${source}${conv}`;
  return { url, queries, system, conv, scale, source, agent };
}
