import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { type BackfillProgress, backfillEmbeddings } from "../jobs/backfill";
import { createLogger } from "../lib/logger";
import { progressBar } from "../lib/progress-bar";
import { createProviders } from "../providers";

// `npm run backfill -- --model <id> [--agent <id>] [--batch N] [--after <memory id>]`
// Embeds every memory with another model while the configured one keeps serving retrieval.
// --model: `use-lite-512` (offline), or an OpenAI-compatible model as `name` or `openai:name[@dims]`.
const { values } = parseArgs({
  options: {
    model: { type: "string" },
    agent: { type: "string" },
    batch: { type: "string", default: "256" },
    after: { type: "string" },
  },
});
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-backfill" });
if (!values.model) {
  logger.error(
    "usage: npm run backfill -- --model <use-lite-512 | openai:name[@dims]> [--agent id] [--batch N]",
  );
  process.exit(2);
}
const batch = Number(values.batch);
if (!Number.isInteger(batch) || batch < 1 || batch > 2048) {
  logger.error("--batch must be an integer 1..2048");
  process.exit(2);
}

const offline = values.model === "use-lite-512";
const m = /^(?:openai:)?([^@]+)(?:@(\d+))?$/.exec(values.model);
if (!offline && !config.openai) {
  logger.error("an OpenAI-compatible model needs OPENAI_BASE_URL (and OPENAI_API_KEY for hosted APIs)");
  process.exit(2);
}
const { embedder } = await createProviders({
  openai: config.openai ?? undefined,
  embedding: offline
    ? { provider: "offline" }
    : {
        provider: "openai",
        model: m?.[1],
        ...(m?.[2] ? { dimensions: Number(m[2]) } : {}),
        batchSize: batch,
      },
});

const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  distributed: config.distributed,
});
await database.migrate();
const started = Date.now();
const progress = progressBar();
const bar = (p: BackfillProgress) => {
  const rate = p.done / Math.max(0.001, (Date.now() - started) / 1000);
  progress.draw(embedder.modelId, p.done, p.total, `${rate.toFixed(0)}/s last=${p.lastId ?? "-"}`);
};
try {
  const done = await backfillEmbeddings({
    db: database.db,
    embedder,
    agentId: values.agent ?? null,
    batch,
    ...(values.after ? { after: values.after } : {}),
    onProgress: bar,
  });
  progress.end();
  logger.info("backfill done", { model: embedder.modelId, embedded: done.done });
  logger.info(
    `switch retrieval with EMBEDDING_MODEL (model id ${embedder.modelId}), then rerun this to catch stragglers`,
  );
} catch (err) {
  progress.end();
  logger.error("backfill stopped; rerun to resume (done rows are skipped)", { error: String(err) });
  process.exitCode = 1;
} finally {
  await database.close();
}
