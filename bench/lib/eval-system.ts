import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";
import { locomoDir, readLocomo } from "./locomo";

/**
 * What the in-memory ranking benches (tune-default, tune-frontier, relevance-ideas) start from:
 * LoCoMo dev's questions (`LOCOMO_DIR`, bench/lib/locomo.ts `locomoDir`) and the service
 * composed on the database `npm run eval:locomo` loaded (`EVAL_DATABASE_URL`), offline embedder.
 */
export async function openLocomoEval(): Promise<
  ReturnType<typeof readLocomo> & { system: System; db: System["services"]["db"]; model: string }
> {
  const dir = locomoDir();
  const url = process.env.EVAL_DATABASE_URL;
  if (!url) throw new Error("set EVAL_DATABASE_URL to the database npm run eval:locomo loaded");
  const locomo = readLocomo(dir);
  const config = loadConfig({
    DATABASE_URL: url,
    MEMSTREAM_DATA_DIR: "memory://",
    EMBEDDING_PROVIDER: "offline",
  });
  const system = await composeSystem(config, silentLogger);
  return { ...locomo, system, db: system.services.db, model: system.providers.embedder.modelId };
}
