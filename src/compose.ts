import { createBodyWork } from "./api/body-work";
import type { AppDeps } from "./api/deps";
import type { Config } from "./config";
import type { Core } from "./core";
import { type Database, openDatabase } from "./db/client";
import { checkReady } from "./db/ready";
import { createAnnouncer } from "./jobs/announce";
import { composeQueues, composeWorkers, type JobsPart } from "./jobs/compose";
import type { Logger } from "./lib/logger";
import { createLlmBudget, type LlmBudget } from "./memory/budget/budget";
import { meteredChat } from "./memory/budget/metered-chat";
import type { MemoryDeps } from "./memory/deps";
import type { Announce } from "./memory/events";
import { dueForReflection } from "./memory/reflect/should-reflect";
import { createRetrieveCache, type RetrieveCache } from "./memory/retrieve/cache-store";
import { createTextWork } from "./memory/text/text-work";
import { createMetrics, type Metrics, recordReflectionRun } from "./metrics";
import { pendingDeliveriesProbe } from "./outgoing/pending";
import { createProviders, type Providers } from "./providers";
import { withEmbeddingCache } from "./providers/embedding-cache";
import { createOfflineImportanceScorer } from "./providers/importance/offline-scorer";
import { type Clock, systemClock } from "./providers/types";
import type { Services } from "./services";

export type { JobsPart } from "./jobs/compose";

/**
 * The memory domain's deps from the configuration: the one place its settings are read, for the
 * service and for tools and benches that rank without the rest of it (an unlimited budget unless
 * configured, no result cache unless given).
 */
export function composeMemory(
  config: Pick<Config, "learning" | "retrieval" | "llmBudget">,
  parts: Pick<MemoryDeps, "db" | "clock" | "embedder" | "announce"> & {
    supersession?: boolean;
    budget?: LlmBudget;
    cache?: RetrieveCache;
  },
): MemoryDeps {
  return {
    db: parts.db,
    clock: parts.clock,
    embedder: parts.embedder,
    announce: parts.announce,
    supersession: parts.supersession ?? false,
    budget: parts.budget ?? createLlmBudget({ db: parts.db, clock: parts.clock, defaults: config.llmBudget }),
    learning: config.learning,
    retrieval: { ...config.retrieval, cache: parts.cache ?? null },
  };
}

/**
 * The running system's parts, built once from the config. The `services` (src/services.ts) are
 * built from the one `core`: one database handle, one clock, one logger, one metrics registry;
 * routes, MCP tools and processors receive that one object.
 */
export type System = {
  config: Config;
  database: Database;
  providers: Providers;
  services: Services;
  app: AppDeps;
  jobs: JobsPart;
  close(): Promise<void>;
};

/** Composition root: opens the database (and migrates it), builds the core, providers, queues and feature deps. */
export async function composeSystem(
  config: Config,
  logger: Logger,
  overrides: {
    clock?: Clock;
    /** Wraps the job system's `announce` (a test drops or observes some kinds of events). */
    announce?: (jobs: Announce) => Announce;
    providers?: Providers;
    /** The process's metrics; the entry points pass one with process metrics, tests a bare one. */
    metrics?: Metrics;
    /** Sees every statement sent to Postgres (a test checks that each names its agent). */
    onQuery?: (query: string) => void;
    /** What this process is, for an embedded folder's lock (a second process names it). */
    role?: string;
    /** It hands an embedded folder over to a server that asks (the stdio MCP server). */
    yields?: boolean;
  } = {},
): Promise<System> {
  const database = await openDatabase({
    url: config.databaseUrl,
    distributed: config.distributed,
    dataDir: config.dataDir,
    onQuery: overrides.onQuery,
    role: overrides.role,
    yields: overrides.yields,
  });
  try {
    await database.migrate();
  } catch (err) {
    await database.close();
    throw err;
  }
  const core: Core = {
    db: database.db,
    clock: overrides.clock ?? systemClock,
    logger,
    metrics: overrides.metrics ?? createMetrics({ defaultMetrics: false }),
  };
  const budget = createLlmBudget({
    db: core.db,
    clock: core.clock,
    defaults: config.llmBudget,
    keys: config.apiKeys.flatMap((k) => (k.llmBudget ? [{ scope: k.scope, limits: k.llmBudget }] : [])),
    metrics: core.metrics,
  });
  // Providers given by the caller are the caller's to close.
  const ownProviders = !overrides.providers;
  const providers =
    overrides.providers ??
    (await createProviders({
      openai: config.openai ?? undefined,
      embedding: config.embedding,
      llm: config.llm ?? undefined,
      importanceExamples: config.importanceExamples ?? undefined,
      logger,
      // Every completion made for an agent counts against its day (src/memory/budget).
      meter: (chat) => meteredChat(chat, budget),
    }));
  const queues = composeQueues(config, core);
  // Every piece of background work is a job (src/jobs/catalog.ts): the domain only announces.
  const announce = createAnnouncer({
    sink: queues.sink,
    logger: core.logger,
    embedChunk: providers.embedder.maxBatchSize,
    // The services are complete by the time any write asks (this runs per write, not now).
    dueForReflection: providers.chat ? (agentId) => dueForReflection(services, agentId) : null,
    pendingDeliveries: pendingDeliveriesProbe(core.db),
  });
  const text = createTextWork({ encoding: config.tokenizerEncoding, ...config.work });
  const services: Services = {
    ...composeMemory(config, {
      db: core.db,
      clock: core.clock,
      embedder: providers.embedder,
      announce: overrides.announce ? overrides.announce(announce) : announce,
      supersession: providers.chat !== null && config.supersession === "llm",
      budget,
      // One result cache per process; answers stay valid across processes by the agent's generation token.
      cache: createRetrieveCache(config.retrieveCache, (result) =>
        core.metrics.retrieveCache.inc({ result }),
      ),
    }),
    logger: core.logger,
    metrics: core.metrics,
    text,
    chat: providers.chat,
    reflectionThreshold: config.reflectionThreshold,
    onRunFinished: (run) => recordReflectionRun(core.metrics, run),
    webhookSecrets: config.github.webhookSecrets,
    routes: config.github.routes,
    importance: providers.importance,
    // Past an agent's LLM budget importance is scored offline (marked so in importanceSource).
    offlineImportance: createOfflineImportanceScorer({
      embedder: providers.embedder,
      ...(config.importanceExamples ? { examples: config.importanceExamples } : {}),
    }),
    // Cached: each consolidation embeds its task type's recent task texts again.
    taskEmbedder: withEmbeddingCache(providers.embedder),
    claimMs: config.jobs.claimMs,
    githubApi: { token: config.github.token, baseUrl: config.github.apiUrl },
    outgoing: {
      ...config.outgoing,
      attempts: config.jobs.eventAttempts,
      backoffMs: config.jobs.eventBackoffMs,
    },
  };
  // Embedded PGlite serves the API's connection first; the workers' statements go on their own.
  const jobs = composeWorkers(config, queues, { ...services, db: database.background });
  const bodies = createBodyWork(config.work);
  const app: AppDeps = {
    ...services,
    config,
    bodies,
    queues: jobs.part.queues,
    ready: () => checkReady(core.db),
  };
  return {
    config,
    database,
    providers,
    services,
    app,
    jobs: jobs.part,
    async close() {
      // Workers finish the jobs in hand before their database goes away.
      await jobs.closeWorkers();
      await jobs.part.sink.close();
      await text.close();
      await bodies.close();
      if (ownProviders) await providers.close();
      await database.close();
    },
  };
}
