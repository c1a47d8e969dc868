import type { AppDeps } from "./api/deps";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { checkReady } from "./db/ready";
import type { DeliveryProcessor, ImportQueue, IngestDeps } from "./ingest/github/deps";
import { composeNotifiers, composeQueues, composeWorkers, type JobsPart } from "./jobs/compose";
import type { Logger } from "./lib/logger";
import { type EnrichmentNotifier, type MemoryDeps, noReflection } from "./memory/deps";
import { dueForReflection } from "./memory/reflect/should-reflect";
import type { ReflectAgentDeps } from "./memory/reflect/types";
import { createMetrics, type Metrics, recordReflectionRun } from "./metrics";
import { createProviders, type Providers } from "./providers";
import { withEmbeddingCache } from "./providers/embedding-cache";
import { type Clock, systemClock } from "./providers/types";

export type { JobsPart } from "./jobs/compose";

/** The running system's parts, built once from the config. */
export type System = {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  database: Database;
  providers: Providers;
  memory: MemoryDeps;
  /** GitHub ingestion: what processing needs, where accepted deliveries and opened imports are sent. */
  github: { deps: IngestDeps; deliveries: DeliveryProcessor; imports: ImportQueue };
  /** Memory deps plus the chat model and default threshold, for reflection. */
  reflect: ReflectAgentDeps;
  app: AppDeps;
  jobs: JobsPart;
  close(): Promise<void>;
};

/** Composition root: opens the database (and migrates it), builds providers, queues and domain deps. */
export async function composeSystem(
  config: Config,
  logger: Logger,
  overrides: {
    clock?: Clock;
    enrichment?: EnrichmentNotifier;
    providers?: Providers;
    /** The process's metrics; the entry points pass one with process metrics, tests a bare one. */
    metrics?: Metrics;
    /** Another delivery processor; by default each accepted delivery is a `github.deliver` job. */
    deliveries?: (deps: IngestDeps) => DeliveryProcessor;
    /** Sees every statement sent to Postgres (a test checks that each names its agent). */
    onQuery?: (query: string) => void;
  } = {},
): Promise<System> {
  const metrics = overrides.metrics ?? createMetrics({ defaultMetrics: false });
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onQuery: overrides.onQuery,
  });
  await database.migrate();
  const providers =
    overrides.providers ??
    (await createProviders({
      openai: config.openai ?? undefined,
      embedding: config.embedding,
      llm: config.llm ?? undefined,
      importanceExamples: config.importanceExamples ?? undefined,
    }));
  const clock = overrides.clock ?? systemClock;
  const queues = composeQueues(config, logger, metrics);
  // Every piece of background work is a job (src/jobs/catalog.ts): the domain only enqueues.
  const notifiers = composeNotifiers(queues.sink, logger, {
    embedChunk: providers.embedder.maxBatchSize,
    // The reflect deps are complete by the time any write asks (this runs per write, not now).
    dueForReflection: providers.chat ? (agentId) => dueForReflection(reflect, agentId) : null,
  });
  const memory: MemoryDeps = {
    db: database.db,
    clock,
    embedder: providers.embedder,
    enrichment: overrides.enrichment ?? notifiers.enrichment,
    reflection: notifiers.reflection ?? noReflection,
    outcomes: notifiers.outcomes,
    retrieval: config.retrieval,
  };
  const reflect: ReflectAgentDeps = {
    ...memory,
    chat: providers.chat,
    reflectionThreshold: config.reflectionThreshold,
    onRunFinished: (run) => recordReflectionRun(metrics, run),
  };
  const ingest: IngestDeps = { memory, routes: config.github.routes, logger };
  const deliveries = overrides.deliveries?.(ingest) ?? notifiers.deliveries;
  const jobs = composeWorkers(config, logger, queues, {
    db: database.db,
    embedder: providers.embedder,
    importance: providers.importance,
    logger,
    claimMs: config.jobs.claimMs,
    reflection: memory.reflection,
    reflect,
    ingest,
    github: { token: config.github.token, baseUrl: config.github.apiUrl },
    // Cached: each consolidation embeds its task type's recent task texts again.
    lessons: {
      db: database.db,
      clock,
      embedder: withEmbeddingCache(providers.embedder),
      chat: providers.chat,
      enrichment: memory.enrichment,
    },
    metrics,
  });
  const imports = notifiers.imports;
  const app: AppDeps = {
    config,
    logger,
    metrics,
    queues: jobs.part.queues,
    memory,
    reflect,
    deliveries,
    imports,
    ready: () => checkReady(database.db),
  };
  return {
    config,
    logger,
    metrics,
    database,
    providers,
    memory,
    reflect,
    github: { deps: ingest, deliveries, imports },
    app,
    jobs: jobs.part,
    async close() {
      // Workers finish the jobs in hand before their database goes away.
      await jobs.closeWorkers();
      await jobs.part.sink.close();
      await database.close();
    },
  };
}
