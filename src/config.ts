import { readFileSync } from "node:fs";
import { z } from "zod";
import { parseRoutes, type RouteRule } from "./ingest/github/route-agents";
import { type AgentScope, parseAgentScope } from "./lib/agent-scope";
import type { LlmBudgetLimits } from "./memory/budget/limits-shape";
import { TOKEN_ENCODINGS } from "./memory/context/tokens";
import { RETRIEVAL_LOG_DEFAULTS, type RetrievalLogBounds } from "./memory/learning/log";
import { LEARNING_DEFAULTS, type LearningConfig } from "./memory/learning/state";
import { AGENT_ID_PATTERN, LIMITS } from "./memory/limits";
import { FAST_DEFAULTS, type FastThresholds } from "./memory/retrieve/fast-thresholds";
import { defaultTextThreads } from "./memory/text/text-work";
import type { ImportanceExamples } from "./providers/importance/examples";
import { DEFAULT_EMBED_BATCH_NICE, defaultEmbedThreads } from "./providers/offline-embedder";
import { DEFAULT_OPENAI_EMBED_BATCH } from "./providers/openai-embedder";

/**
 * All configuration, parsed once at start-up from the environment. Nothing else reads
 * `process.env`: the parsed `Config` is passed down.
 */

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const list = z.string().transform((s) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean),
);

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default("127.0.0.1"),
  DATABASE_URL: z.string().url().optional(),
  /** `citus`: DATABASE_URL is a Citus coordinator; migrating distributes the tables by agent_id. */
  MEMSTREAM_DISTRIBUTED: z.enum(["citus", "off"]).default("off"),
  MEMSTREAM_DATA_DIR: z.string().default(".memstream/data"),
  MEMSTREAM_API_KEYS: list.optional(),
  MEMSTREAM_ALLOW_NO_AUTH: bool.default(false),
  /** Comma-separated admin tokens for /metrics and /admin/queues (operators, not agents). */
  MEMSTREAM_ADMIN_KEYS: list.optional(),
  /** Port of the worker process's /metrics endpoint (`npm run worker`); 0 turns it off. */
  MEMSTREAM_WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  MEMSTREAM_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
  MEMSTREAM_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  REDIS_URL: z.string().optional(),
  /** REDIS_URL is one node (the seed) of a Redis Cluster; the queue prefix then needs a hash tag. */
  REDIS_CLUSTER: bool.default(false),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  EMBEDDING_PROVIDER: z.enum(["offline", "openai"]).optional(),
  EMBEDDING_MODEL: z.string().optional(),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().positive().optional(),
  LLM_MODEL: z.string().optional(),
  /** With LLM_MODEL: `llm` asks it whether a new memory replaces earlier ones (docs/adr/0029); `off` never. */
  MEMSTREAM_SUPERSESSION: z.enum(["llm", "off"]).default("llm"),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Texts per request of the OpenAI-compatible embedder. */
  EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(DEFAULT_OPENAI_EMBED_BATCH),
  /** Whether the API process also runs the enrichment workers (`off` when `npm run worker` runs them). */
  MEMSTREAM_WORKERS: z.enum(["in-process", "off"]).default("in-process"),
  /**
   * Redis key prefix of the queues; one per deployment (tests use one per file). On a Redis Cluster
   * it must hold a hash tag, `{memstream}` by default there.
   */
  MEMSTREAM_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.{}-]+$/)
    .optional(),
  MEMSTREAM_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  MEMSTREAM_JOB_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  MEMSTREAM_JOB_BACKOFF_MS: z.coerce.number().int().min(1).default(2_000),
  /** How long a job's claim on a memory lasts before another job may take it over. */
  MEMSTREAM_CLAIM_MS: z.coerce.number().int().min(100).default(120_000),
  /** BullMQ lock; a job whose worker died is retried once this lapses. */
  MEMSTREAM_JOB_LOCK_MS: z.coerce.number().int().min(100).default(30_000),
  MEMSTREAM_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).default(30_000),
  /** A memory pending (and unclaimed) longer than this is re-enqueued by the sweep. */
  MEMSTREAM_SWEEP_AFTER_MS: z.coerce.number().int().min(0).default(60_000),
  /** After SIGTERM/SIGINT, how long draining may take before the process exits 1 anyway. */
  MEMSTREAM_SHUTDOWN_MS: z.coerce.number().int().min(100).default(20_000),
  MEMSTREAM_SWEEP_LIMIT: z.coerce.number().int().min(1).max(100_000).default(5_000),
  /** How often an agent's retention policy is applied (`agent.retain`, enqueued by the sweep); default hourly. */
  MEMSTREAM_RETENTION_INTERVAL_MS: z.coerce.number().int().min(1_000).default(3_600_000),
  /**
   * Outgoing events (docs/events.md): whether a subscription may name a loopback, private or
   * link-local address. Default: only in zero-config (no DATABASE_URL: a local, single-user setup).
   */
  MEMSTREAM_EVENTS_ALLOW_PRIVATE: bool.optional(),
  /** The time bound of one delivery's HTTP request (connect, send, status and a capped body read). */
  MEMSTREAM_EVENTS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Attempts of one delivery before it is `failed`. */
  MEMSTREAM_EVENTS_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10),
  /** Base of a delivery's exponential backoff: 1 min, 2, 4, … (10 attempts span ~8.5 h). */
  MEMSTREAM_EVENTS_BACKOFF_MS: z.coerce.number().int().min(1).default(60_000),
  /** A subscription is disabled after this many deliveries in a row failed for good; 0 = never. */
  MEMSTREAM_EVENTS_DISABLE_AFTER: z.coerce.number().int().min(0).max(10_000).default(10),
  /** Days a delivered or failed delivery stays in its subscription's log. */
  MEMSTREAM_EVENTS_LOG_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  /** JSON file `{ "mundane": [...], "poignant": [...] }` of deployment-specific importance examples. */
  IMPORTANCE_EXAMPLES_FILE: z.string().optional(),
  /** Comma-separated webhook secrets; several at once so a secret can be rotated. */
  GITHUB_WEBHOOK_SECRET: list.optional(),
  /** Routing rules, see src/ingest/github/route-agents.ts. */
  GITHUB_ROUTES: z.string().optional(),
  /** Token for the repository import (GitHub REST API); unset: unauthenticated, 60 requests an hour. */
  GITHUB_TOKEN: z.string().min(1).optional(),
  /** GitHub REST API base URL (GitHub Enterprise: https://<host>/api/v3). */
  GITHUB_API_URL: z.string().url().default("https://api.github.com"),
  /** An agent's LLM tokens (prompt + completion, as the provider reports them) per UTC day; 0 = unlimited. An agent's `llmBudget` setting overrides it. */
  MEMSTREAM_LLM_DAILY_TOKENS: z.coerce.number().int().min(0).default(0),
  /** An agent's chat completions per UTC day; 0 = unlimited. An agent's `llmBudget` setting overrides it. */
  MEMSTREAM_LLM_DAILY_CALLS: z.coerce.number().int().min(0).default(0),
  /** Summed importance since the last reflection that triggers one (paper: 150); 0 turns the trigger off. */
  REFLECTION_THRESHOLD: z.coerce.number().int().min(0).max(LIMITS.maxReflectionThreshold).default(150),
  /** Tokenizer for `maxTokens` context budgets. */
  TOKENIZER_ENCODING: z.enum(TOKEN_ENCODINGS).default("o200k_base"),
  /** Worker threads for document splitting and large token counts; default one per core but one, 1..4; 0 = inline. */
  MEMSTREAM_WORK_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** Time budget of one such step in a thread; past it the request answers 413. */
  MEMSTREAM_WORK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * Worker threads of the offline embedder for queries (batches get one fewer, at least one);
   * default one per core, 1..4; 0 = on the API's event loop.
   */
  MEMSTREAM_EMBED_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /**
   * Nice value of those batch threads (Linux; default 10, 19 = the lowest priority), so the API's thread wins
   * the CPU over a backlog's batches; 0 = the process's own.
   */
  MEMSTREAM_EMBED_BATCH_NICE: z.coerce.number().int().min(0).max(19).default(DEFAULT_EMBED_BATCH_NICE),
  /** Pending memories a retrieve embeds inline (read your own writes); 0 = off. */
  MEMSTREAM_RETRIEVE_EMBED_PENDING: z.coerce.number().int().min(0).max(64).default(8),
  /** Time bound of that inline embedding; past it pending memories keep relevance 0. */
  MEMSTREAM_RETRIEVE_EMBED_PENDING_MS: z.coerce.number().int().min(1).max(60_000).default(500),
  /**
   * The longest a retrieve's statements may run together (PostgreSQL's statement and lock timeout
   * in its transaction); past it the request answers 503 retrieve_timeout.
   */
  MEMSTREAM_RETRIEVE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(LIMITS.retrieveTimeoutMs),
  /**
   * `mode: fast` runs its threshold search only for streams of at least this many memories that
   * hold at least MEMSTREAM_FAST_MIN_SHARE of the model's indexed vectors; others rank exactly
   * (docs/adr/0020-threshold-retrieval.md).
   */
  MEMSTREAM_FAST_MIN_STREAM: z.coerce.number().int().min(0).default(FAST_DEFAULTS.minStream),
  MEMSTREAM_FAST_MIN_SHARE: z.coerce.number().min(0).max(1).default(FAST_DEFAULTS.minShare),
  /**
   * The retrieval log (feedback and learned weights, docs/adr/0025-learned-weights.md): retrieves kept per agent
   * (0 = no log) and for how many days.
   */
  MEMSTREAM_RETRIEVAL_LOG_MAX: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(RETRIEVAL_LOG_DEFAULTS.max),
  MEMSTREAM_RETRIEVAL_LOG_DAYS: z.coerce
    .number()
    .min(0.001)
    .max(3650)
    .default(RETRIEVAL_LOG_DEFAULTS.maxAgeMs / 86_400_000),
  /** Identical retrieves within this many ms answered from the result cache (per agent: `retrieveCacheTtlMs`); 0 = off. */
  MEMSTREAM_RETRIEVE_CACHE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(LIMITS.maxRetrieveCacheTtlMs)
    .default(0),
  /** Answers the result cache keeps per process (least recently used out first). */
  MEMSTREAM_RETRIEVE_CACHE_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /**
   * Weights learned from each agent's feedback rank its retrieves (per agent: `learnWeights` in
   * PUT /settings), once `MEMSTREAM_LEARN_MIN_EVENTS` retrieves have feedback and a fit passed the
   * guardrails (docs/adr/0025-learned-weights.md). Off by default: against the current default it
   * did not pay on LoCoMo (`npm run eval:learning`).
   */
  MEMSTREAM_LEARN_WEIGHTS: bool.default(LEARNING_DEFAULTS.enabled),
  MEMSTREAM_LEARN_MIN_EVENTS: z.coerce
    .number()
    .int()
    .min(2)
    .max(100_000)
    .default(LEARNING_DEFAULTS.minEvents),
  /** Default agent of the stdio MCP server (`npm run mcp`), so tools need no agentId. */
  MEMSTREAM_MCP_AGENT: z.string().regex(AGENT_ID_PATTERN, "not a valid agent id").optional(),
});

export type ApiKey = {
  /** The bearer token. */
  token: string;
  /** When set, the key may only touch the agents this scope opens (tenant scoping; src/lib/agent-scope.ts). */
  scope: AgentScope | null;
  /** A daily LLM budget shared by every agent the key opens (`;dailyTokens=N;dailyCalls=N`); absent = none. */
  llmBudget?: Required<LlmBudgetLimits>;
};

/** A key entry's trailing options: `;dailyTokens=N` and `;dailyCalls=N` (agent ids never hold `;`). */
const KEY_OPTIONS = /((?:;(?:dailyTokens|dailyCalls)=\d+)+)$/;

/**
 * Parses `MEMSTREAM_API_KEYS`: `token` grants every agent; `token=<scope>` only the agents of the
 * scope: `exact:<id>`, `prefix:<p>`, or a bare `<p>` (a prefix, as before the forms existed). Either
 * may end in `;dailyTokens=N;dailyCalls=N`: an LLM budget per UTC day for all the key's agents
 * together (0 or left out = unlimited).
 */
export function parseApiKeys(entries: string[]): ApiKey[] {
  return entries.map((raw) => {
    const options = KEY_OPTIONS.exec(raw)?.[1];
    const entry = options ? raw.slice(0, -options.length) : raw;
    const budget = options
      ? Object.fromEntries(
          options
            .slice(1)
            .split(";")
            .map((o) => o.split("=")),
        )
      : null;
    const llmBudget = budget
      ? {
          llmBudget: {
            dailyTokens: Number(budget.dailyTokens ?? 0),
            dailyCalls: Number(budget.dailyCalls ?? 0),
          },
        }
      : {};
    const eq = entry.indexOf("=");
    if (eq === -1) return { token: entry, scope: null, ...llmBudget };
    return { token: entry.slice(0, eq), scope: parseAgentScope(entry.slice(eq + 1)), ...llmBudget };
  });
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * The configuration: the environment's variables (EnvSchema) shaped into what the code reads. This
 * schema is its one definition; the `Config` type is inferred from it, and
 * test/config/readme-table.test.ts holds the configuration table (docs/operations.md) to the variables and defaults above.
 */
const ConfigSchema = EnvSchema.transform((e, ctx) => {
  const problem = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  const apiKeys = parseApiKeys(e.MEMSTREAM_API_KEYS ?? []);
  // An option that did not parse would otherwise become part of the token, silently.
  const garbled = apiKeys.findIndex((k) => /;daily/i.test(`${k.token}=${k.scope?.value ?? ""}`));
  if (garbled !== -1) {
    return problem(
      `MEMSTREAM_API_KEYS entry ${garbled + 1}: budget options are ;dailyTokens=<whole number> and ;dailyCalls=<whole number>, at the end of the entry`,
    );
  }
  if (apiKeys.length === 0 && !LOOPBACK.has(e.HOST) && !e.MEMSTREAM_ALLOW_NO_AUTH) {
    return problem(
      `Refusing to listen on ${e.HOST} without MEMSTREAM_API_KEYS. Set keys, bind HOST=127.0.0.1, or set MEMSTREAM_ALLOW_NO_AUTH=true.`,
    );
  }
  const openai =
    e.OPENAI_BASE_URL || e.OPENAI_API_KEY
      ? {
          baseURL: e.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
          apiKey: e.OPENAI_API_KEY,
          timeoutMs: e.OPENAI_TIMEOUT_MS,
          maxRetries: e.OPENAI_MAX_RETRIES,
        }
      : null;
  const embeddingProvider = e.EMBEDDING_PROVIDER ?? (openai && e.EMBEDDING_MODEL ? "openai" : "offline");
  if (embeddingProvider === "openai" && !openai) {
    return problem("EMBEDDING_PROVIDER=openai needs OPENAI_BASE_URL (and OPENAI_API_KEY for hosted APIs).");
  }
  if (embeddingProvider === "openai" && !e.EMBEDDING_MODEL)
    return problem("EMBEDDING_PROVIDER=openai needs EMBEDDING_MODEL.");
  const queuePrefix = e.MEMSTREAM_QUEUE_PREFIX ?? (e.REDIS_CLUSTER ? "{memstream}" : "memstream");
  // BullMQ's scripts touch several keys of a queue at once; a cluster runs them only when all the
  // keys hash to one slot, which a `{tag}` in the prefix guarantees.
  if (e.REDIS_CLUSTER && !/\{[^{}]+\}/.test(queuePrefix)) {
    return problem(
      `REDIS_CLUSTER=true needs a hash tag in MEMSTREAM_QUEUE_PREFIX (e.g. {memstream}); got ${queuePrefix}`,
    );
  }
  if (e.REDIS_CLUSTER && !e.REDIS_URL)
    return problem("REDIS_CLUSTER=true needs REDIS_URL (a node of the cluster).");
  if (e.MEMSTREAM_DISTRIBUTED === "citus" && !e.DATABASE_URL) {
    return problem("MEMSTREAM_DISTRIBUTED=citus needs DATABASE_URL (the Citus coordinator).");
  }
  if (e.LLM_MODEL && !openai) return problem("LLM_MODEL needs OPENAI_BASE_URL (or OPENAI_API_KEY).");
  const jobs = {
    /** Run workers inside the API process (BullMQ when Redis is configured, else an in-process queue). */
    workers: e.MEMSTREAM_WORKERS,
    queuePrefix,
    concurrency: e.MEMSTREAM_WORKER_CONCURRENCY,
    attempts: e.MEMSTREAM_JOB_ATTEMPTS,
    backoffMs: e.MEMSTREAM_JOB_BACKOFF_MS,
    claimMs: e.MEMSTREAM_CLAIM_MS,
    lockMs: e.MEMSTREAM_JOB_LOCK_MS,
    sweepIntervalMs: e.MEMSTREAM_SWEEP_INTERVAL_MS,
    sweepAfterMs: e.MEMSTREAM_SWEEP_AFTER_MS,
    sweepLimit: e.MEMSTREAM_SWEEP_LIMIT,
    /** An agent's retention policy is applied again once its last run is this old. */
    retentionIntervalMs: e.MEMSTREAM_RETENTION_INTERVAL_MS,
    /** Attempts and backoff base of an outgoing event's delivery (`events.deliver`). */
    eventAttempts: e.MEMSTREAM_EVENTS_ATTEMPTS,
    eventBackoffMs: e.MEMSTREAM_EVENTS_BACKOFF_MS,
  };
  const retrieval: {
    fresh: { max: number; timeoutMs: number };
    fast: FastThresholds;
    timeoutMs: number;
    log: RetrievalLogBounds;
  } = {
    fresh: { max: e.MEMSTREAM_RETRIEVE_EMBED_PENDING, timeoutMs: e.MEMSTREAM_RETRIEVE_EMBED_PENDING_MS },
    fast: { minStream: e.MEMSTREAM_FAST_MIN_STREAM, minShare: e.MEMSTREAM_FAST_MIN_SHARE },
    timeoutMs: e.MEMSTREAM_RETRIEVE_TIMEOUT_MS,
    log: { max: e.MEMSTREAM_RETRIEVAL_LOG_MAX, maxAgeMs: e.MEMSTREAM_RETRIEVAL_LOG_DAYS * 86_400_000 },
  };
  const learning: LearningConfig = {
    ...LEARNING_DEFAULTS,
    enabled: e.MEMSTREAM_LEARN_WEIGHTS,
    minEvents: e.MEMSTREAM_LEARN_MIN_EVENTS,
  };
  const github: { webhookSecrets: string[]; routes: RouteRule[]; token: string | null; apiUrl: string } = {
    webhookSecrets: e.GITHUB_WEBHOOK_SECRET ?? [],
    routes: readRoutes(e.GITHUB_ROUTES),
    token: e.GITHUB_TOKEN ?? null,
    apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ""),
  };
  return {
    port: e.PORT,
    host: e.HOST,
    /** Null means zero-config mode: embedded PGlite in `dataDir`. */
    databaseUrl: e.DATABASE_URL ?? null,
    /** `citus`: the tables are distributed by agent_id on a Citus cluster (docs/adr/0011-scale-out.md). */
    distributed: e.MEMSTREAM_DISTRIBUTED === "citus" ? ("citus" as const) : null,
    dataDir: e.MEMSTREAM_DATA_DIR,
    /** Empty means no authentication (only allowed on loopback or with MEMSTREAM_ALLOW_NO_AUTH). */
    apiKeys,
    /**
     * Tokens for the operator endpoints (/metrics, /admin/queues). Empty: they are open only when
     * there are no API keys either (a loopback-only dev setup), else closed.
     */
    adminKeys: e.MEMSTREAM_ADMIN_KEYS ?? [],
    /** Where `npm run worker` serves its own /metrics (0 = nowhere). */
    workerMetricsPort: e.MEMSTREAM_WORKER_METRICS_PORT,
    maxBodyBytes: e.MEMSTREAM_MAX_BODY_BYTES,
    logLevel: e.MEMSTREAM_LOG_LEVEL,
    redisUrl: e.REDIS_URL ?? null,
    /** REDIS_URL names a seed node of a Redis Cluster (ioredis Cluster; hash-tagged queue prefix). */
    redisCluster: e.REDIS_CLUSTER,
    openai,
    embedding: {
      provider: embeddingProvider,
      model: e.EMBEDDING_MODEL,
      dimensions: e.EMBEDDING_DIMENSIONS,
      /** Texts per request of the OpenAI-compatible embedder (the offline model batches by its own size). */
      batchSize: e.EMBEDDING_BATCH_SIZE,
      /** The offline model's worker threads (MEMSTREAM_EMBED_THREADS). */
      threads: e.MEMSTREAM_EMBED_THREADS ?? defaultEmbedThreads(),
      /** Nice value of its batch threads (MEMSTREAM_EMBED_BATCH_NICE; 0 = off). */
      batchNice: e.MEMSTREAM_EMBED_BATCH_NICE,
    },
    llm: e.LLM_MODEL ? { model: e.LLM_MODEL } : null,
    supersession: e.MEMSTREAM_SUPERSESSION,
    importanceExamples: e.IMPORTANCE_EXAMPLES_FILE ? readExamples(e.IMPORTANCE_EXAMPLES_FILE) : null,
    /**
     * GitHub webhook ingestion (no secrets: `POST /webhooks/github` answers 501 and accepts nothing)
     * and the repository import's REST API access.
     */
    github,
    /** Deployment default; an agent's `reflection_threshold` setting overrides it. 0 = no threshold trigger. */
    reflectionThreshold: e.REFLECTION_THRESHOLD,
    /** Deployment default of an agent's daily LLM budget (docs/adr/0041-llm-budget.md); 0 = unlimited. */
    llmBudget: { dailyTokens: e.MEMSTREAM_LLM_DAILY_TOKENS, dailyCalls: e.MEMSTREAM_LLM_DAILY_CALLS },
    /** The result cache (src/memory/retrieve/cache.ts): the deployment TTL (an agent's setting overrides) and size. */
    retrieveCache: {
      ttlMs: e.MEMSTREAM_RETRIEVE_CACHE_TTL_MS,
      maxEntries: e.MEMSTREAM_RETRIEVE_CACHE_ENTRIES,
    },
    tokenizerEncoding: e.TOKENIZER_ENCODING,
    /** Threads (0 = inline) and time budget of the CPU-heavy text steps (src/memory/text/text-work.ts). */
    work: {
      threads: e.MEMSTREAM_WORK_THREADS ?? defaultTextThreads(),
      timeoutMs: e.MEMSTREAM_WORK_TIMEOUT_MS,
    },
    jobs,
    /** Outgoing events' delivery (src/outgoing, docs/events.md). */
    outgoing: {
      allowPrivate: e.MEMSTREAM_EVENTS_ALLOW_PRIVATE ?? !e.DATABASE_URL,
      timeoutMs: e.MEMSTREAM_EVENTS_TIMEOUT_MS,
      disableAfter: e.MEMSTREAM_EVENTS_DISABLE_AFTER,
      logDays: e.MEMSTREAM_EVENTS_LOG_DAYS,
    },
    /** Deadline of a graceful shutdown (MEMSTREAM_SHUTDOWN_MS). */
    shutdownMs: e.MEMSTREAM_SHUTDOWN_MS,
    retrieval,
    learning,
    mcp: { defaultAgentId: e.MEMSTREAM_MCP_AGENT ?? null },
  };
});

export type Config = z.output<typeof ConfigSchema>;
/** Queue, retry and sweep settings of the enrichment pipeline (see docs/adr/0004-enrichment-pipeline.md). */
export type JobsConfig = Config["jobs"];
/** How outgoing events are delivered (docs/events.md). */
export type OutgoingConfig = Config["outgoing"];

/** Parses and checks the environment once; throws with every problem listed. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message))
      .join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

const ExamplesSchema = z.object({
  mundane: z.array(z.string().min(1)).default([]),
  poignant: z.array(z.string().min(1)).default([]),
});

function readExamples(path: string): ImportanceExamples {
  try {
    return ExamplesSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  } catch (err) {
    throw new Error(`IMPORTANCE_EXAMPLES_FILE ${path}: ${(err as Error).message}`);
  }
}

function readRoutes(spec: string | undefined): RouteRule[] {
  try {
    return parseRoutes(spec);
  } catch (err) {
    throw new Error(`GITHUB_ROUTES: ${(err as Error).message}`);
  }
}
