import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one process. Each process builds its own registry (no global state), so
 * tests can build several systems side by side and an API and a worker in one process do not clash.
 * Label values are bounded sets (route patterns, modes, job names, statuses), never ids.
 */
export type Metrics = ReturnType<typeof createMetrics>;

/** Jobs of one name in one state (waiting, active, delayed, failed). */
export type QueueCount = { job: string; state: string; count: number };
/** Reads the queue depth at scrape time (BullMQ's counts, or the in-process queue's own). */
export type QueueDepthSource = () => Promise<QueueCount[]>;

/**
 * A scrape waits at most this long for the queue depth (Redis down or hanging); past it the depth
 * is left out of that scrape and every other metric is still answered, well inside Prometheus'
 * default 10 s scrape timeout.
 */
export const QUEUE_DEPTH_TIMEOUT_MS = 1_000;

// Request and query durations: from ~1 ms to 30 s.
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** How often the event loop's delay is sampled. */
export const EVENT_LOOP_SAMPLE_MS = 50;

export function createMetrics(opts: { defaultMetrics?: boolean; eventLoop?: boolean } = {}) {
  const registry = new Registry();
  // Process metrics (CPU, memory, event-loop lag, GC) for the running service; tests skip them.
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: "memstream_" });
  const registers = [registry];
  const eventLoopDelay = new Histogram({
    name: "memstream_event_loop_delay_seconds",
    help: `How late a ${EVENT_LOOP_SAMPLE_MS} ms timer fired: time the event loop could not answer any request (a stall of 2 s is one observation of 2 s)`,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  if (opts.eventLoop ?? opts.defaultMetrics ?? true) sampleEventLoopDelay(eventLoopDelay);
  const depthSources: QueueDepthSource[] = [];
  // The depth read of the scrape in progress: the error counter waits for it, so a failure is
  // counted in the same scrape that leaves the depth out (prom-client collects metrics concurrently).
  let reading: Promise<void> = Promise.resolve();
  const queueDepth = new Gauge({
    name: "memstream_queue_jobs",
    help: "Jobs in the queue by job name and state (waiting, active, delayed, failed), read at scrape time",
    labelNames: ["job", "state"] as const,
    registers,
    collect() {
      this.reset();
      if (depthSources.length === 0) return;
      reading = withTimeout(Promise.all(depthSources.map((s) => s())), QUEUE_DEPTH_TIMEOUT_MS).then(
        (counts) => {
          for (const c of counts.flat()) this.inc({ job: c.job, state: c.state }, c.count);
        },
        () => depthErrors.inc(),
      );
      return reading;
    },
  });
  // Registered after the gauge, so its collect runs after the gauge's has started this scrape's read.
  const depthErrors = new Counter({
    name: "memstream_queue_depth_errors_total",
    help: "Scrapes whose queue depth could not be read in time (Redis down or slow); the depth is left out of those scrapes",
    registers,
    collect: () => reading,
  });
  return {
    registry,
    contentType: registry.contentType,
    /** The exposition text (scrape-time values such as the queue depth are read now). */
    scrape: (): Promise<string> => registry.metrics(),
    /** Where the queue depth is read at scrape time; the part that owns the queue registers it. */
    readQueueDepthFrom(source: QueueDepthSource) {
      depthSources.push(source);
    },
    eventLoopDelay,
    httpDuration: new Histogram({
      name: "memstream_http_request_duration_seconds",
      help: "HTTP request duration by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: SECONDS,
      registers,
    }),
    retrieveDuration: new Histogram({
      name: "memstream_retrieve_duration_seconds",
      help: "Retrieve duration (ranking, touch and context assembly) by the mode that ranked, the statement the planner chose (plan: full, sections, threshold, fast) and the relevance kind",
      labelNames: ["mode", "plan", "relevance"] as const,
      buckets: SECONDS,
      registers,
    }),
    retrieveCandidates: new Histogram({
      name: "memstream_retrieve_candidates",
      help: "Memories the ranking scored per retrieve, by the mode and the statement that ranked (full and sections: the stream or its filtered part; threshold: the memories that could reach the top k; fast: the index candidates)",
      labelNames: ["mode", "plan"] as const,
      buckets: [1, 10, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000],
      registers,
    }),
    jobDuration: new Histogram({
      name: "memstream_job_duration_seconds",
      help: "Duration of one job attempt by job name and outcome (completed; failed: it threw, whether or not it is retried)",
      labelNames: ["job", "outcome"] as const,
      buckets: [...SECONDS, 60, 300, 1_800],
      registers,
    }),
    queueDepth,
    enrichmentLag: new Histogram({
      name: "memstream_enrichment_lag_seconds",
      help: "Time from a memory's text being written (created or edited) to its field (importance, embedding) becoming ready",
      labelNames: ["field"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
    reflectionRuns: new Counter({
      name: "memstream_reflection_runs_total",
      help: "Finished reflection runs by trigger (manual, threshold) and outcome (succeeded, failed)",
      labelNames: ["trigger", "outcome"] as const,
      registers,
    }),
    reflectionTokens: new Counter({
      name: "memstream_reflection_tokens_total",
      help: "LLM tokens used by reflection, by kind (prompt, completion)",
      labelNames: ["kind"] as const,
      registers,
    }),
    llmTokens: new Counter({
      name: "memstream_llm_tokens_total",
      help: "LLM tokens counted against agents' daily budgets, as the provider reported them, by kind (prompt, completion)",
      labelNames: ["kind"] as const,
      registers,
    }),
    llmCalls: new Counter({
      name: "memstream_llm_calls_total",
      help: "Chat completions counted against agents' daily budgets",
      registers,
    }),
    retrieveCache: new Counter({
      name: "memstream_retrieve_cache_total",
      help: "Retrieves by what the result cache did: hit (answered from it), miss (ranked and kept), bypass (the cache is on but the request or agent cannot use it)",
      labelNames: ["result"] as const,
      registers,
    }),
    llmBudgetDeferred: new Counter({
      name: "memstream_llm_budget_deferred_total",
      help: "LLM work not done because the agent's daily budget was spent, by work (importance: scored offline instead; reflection, supersession: left for the next day; lesson: template wording)",
      labelNames: ["work"] as const,
      registers,
    }),
    eventDeliveries: new Counter({
      name: "memstream_event_deliveries_total",
      help: "Attempts to deliver outgoing events, by result (delivered: a 2xx; retrying: failed, another attempt follows; failed: failed for good)",
      labelNames: ["result"] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "memstream_webhook_deliveries_total",
      help: "GitHub webhook deliveries received, by status (accepted, duplicate: a known delivery id, replay: a known body under a new id, rejected: bad or missing signature)",
      labelNames: ["status"] as const,
      registers,
    }),
  };
}

/**
 * Observes how late a repeating timer fires. Unlike prom-client's lag gauges (percentiles since the
 * last scrape), a histogram keeps every stall: the next one names its size and how often it happens.
 */
function sampleEventLoopDelay(histogram: Histogram) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    histogram.observe(Math.max(0, now - last - EVENT_LOOP_SAMPLE_MS) / 1000);
    last = now;
  }, EVENT_LOOP_SAMPLE_MS).unref();
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  // A source that answers after the deadline must not be an unhandled rejection.
  p.catch(() => {});
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Counts a finished reflection run and the tokens it spent (failed runs' partial usage included). */
export function recordReflectionRun(
  metrics: Metrics,
  run: { trigger: string; status: string; usage: { promptTokens: number; completionTokens: number } },
): void {
  metrics.reflectionRuns.inc({ trigger: run.trigger, outcome: run.status });
  metrics.reflectionTokens.inc({ kind: "prompt" }, run.usage.promptTokens);
  metrics.reflectionTokens.inc({ kind: "completion" }, run.usage.completionTokens);
}

/** Runs one job attempt and records its duration by job name and outcome. */
export async function timeJob<T>(metrics: Metrics, job: string, run: () => Promise<T>): Promise<T> {
  const end = metrics.jobDuration.startTimer({ job });
  try {
    const result = await run();
    end({ outcome: "completed" });
    return result;
  } catch (err) {
    end({ outcome: "failed" });
    throw err;
  }
}

/** Records how long fields waited to become ready: `writtenAt` in epoch seconds, against `now`. */
export function recordEnrichmentLag(
  metrics: Metrics,
  field: "importance" | "embedding",
  writtenAt: readonly number[],
  now: Date,
): void {
  const at = now.getTime() / 1000;
  // A clock behind the row's time (a simulated clock) would give a negative lag: counted as 0.
  for (const w of writtenAt) metrics.enrichmentLag.observe({ field }, Math.max(0, at - w));
}
