import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one process. Each process builds its own registry (no global state), so
 * tests can build several systems side by side and an API and a worker in one process do not clash.
 * Label values are bounded sets (route patterns, modes, job names, statuses), never ids.
 */
export type Metrics = ReturnType<typeof createMetrics>;

// Request and query durations: from ~1 ms to 30 s.
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(opts: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  // Process metrics (CPU, memory, event-loop lag, GC) for the running service; tests skip them.
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: "memstream_" });
  const registers = [registry];
  return {
    registry,
    contentType: registry.contentType,
    /** The exposition text. */
    scrape: (): Promise<string> => registry.metrics(),
    httpDuration: new Histogram({
      name: "memstream_http_request_duration_seconds",
      help: "HTTP request duration by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: SECONDS,
      registers,
    }),
    retrieveDuration: new Histogram({
      name: "memstream_retrieve_duration_seconds",
      help: "Retrieve duration (ranking, touch and context assembly) by the mode that ranked and the relevance kind",
      labelNames: ["mode", "relevance"] as const,
      buckets: SECONDS,
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
    webhookDeliveries: new Counter({
      name: "memstream_webhook_deliveries_total",
      help: "GitHub webhook deliveries received, by status (accepted, duplicate, rejected: bad or missing signature)",
      labelNames: ["status"] as const,
      registers,
    }),
  };
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
