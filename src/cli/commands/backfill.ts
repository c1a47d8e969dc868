import { progressBar } from "../../lib/progress-bar";
import { type Command, EXIT, EXIT_HELP, int, str, UsageError } from "../kit/io";

/**
 * `memstream backfill --model <id>` (also `npm run backfill -- …`): embeds every memory with
 * another model while the configured one keeps serving retrieval; rerun, it resumes.
 */
export const command: Command = {
  options: {
    model: { type: "string" },
    agent: { type: "string" },
    batch: { type: "string" },
    after: { type: "string" },
  },
  usage: `usage: memstream backfill --model <use-lite-512 | openai:name[@dims]> [--agent ID] [--batch N] [--after ID]

Embeds every memory (or one agent's) with another model while the configured one keeps serving
retrieval, opening the database directly, with a progress bar. Stopped, the same command resumes
(memories already embedded with the model are skipped). Then switch retrieval with EMBEDDING_MODEL
and run it once more to catch the memories written meanwhile.

options:
  --model ID        use-lite-512 (offline), or an OpenAI-compatible model as name or openai:name[@dims]
                    (needs OPENAI_BASE_URL, and OPENAI_API_KEY for hosted APIs)
  --agent ID        only this agent's memories
  --batch N         memories per embedding call, 1..2048 (default 256)
  --after ID        start after this memory id
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args, io) {
    const model = str(args, "model");
    if (!model) throw new UsageError("needs --model");
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const batch = int(args, "batch", 1, 2048) ?? 256;
    const [{ loadConfig }, { createLogger }, { openDatabase }, { backfillEmbeddings }, { createProviders }] =
      await Promise.all([
        import("../../config"),
        import("../../lib/logger"),
        import("../../db/client"),
        import("../../jobs/backfill"),
        import("../../providers"),
      ]);
    const config = loadConfig(io.env);
    const logger = createLogger(config.logLevel, { service: "memstream-backfill" });
    const offline = model === "use-lite-512";
    if (!offline && !config.openai)
      throw new UsageError(
        "an OpenAI-compatible model needs OPENAI_BASE_URL (and OPENAI_API_KEY for hosted APIs)",
      );
    const m = /^(?:openai:)?([^@]+)(?:@(\d+))?$/.exec(model);
    const providers = await createProviders({
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
    const { embedder } = providers;
    const database = await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      distributed: config.distributed,
      role: "memstream backfill",
    });
    const started = Date.now();
    const bar = progressBar(io.stderr);
    try {
      await database.migrate();
      const done = await backfillEmbeddings({
        db: database.db,
        embedder,
        agentId: str(args, "agent") ?? null,
        batch,
        ...(str(args, "after") ? { after: str(args, "after") } : {}),
        onProgress: (p) => {
          const rate = p.done / Math.max(0.001, (Date.now() - started) / 1000);
          bar.draw(embedder.modelId, p.done, p.total, `${rate.toFixed(0)}/s last=${p.lastId ?? "-"}`);
        },
      });
      bar.end();
      logger.info("backfill done", { model: embedder.modelId, embedded: done.done });
      logger.info(
        `switch retrieval with EMBEDDING_MODEL (model id ${embedder.modelId}), then rerun this to catch stragglers`,
      );
      return EXIT.ok;
    } catch (err) {
      bar.end();
      logger.error("backfill stopped; rerun to resume (done rows are skipped)", { error: String(err) });
      return EXIT.failed;
    } finally {
      await database.close();
      await providers.close();
    }
  },
};
