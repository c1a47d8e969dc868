/** When and how long to retry; every attempt after the first waits base·2^n (capped, with jitter). */
export type RetryOptions = {
  /** Retries after the first attempt (default 4; 0 turns retrying off). */
  retries?: number;
  /** First backoff in ms (default 250). */
  baseDelayMs?: number;
  /** Longest single wait in ms, also the cap on `retry-after` (default 10,000). */
  maxDelayMs?: number;
};

/** Statuses that mean "nothing happened, try again": overloaded (429) or a dependency down (503). */
const RETRY_STATUSES = new Set([429, 503]);

/**
 * Wraps `fetch` so 429 and 503 answers and refused connections are retried with exponential
 * backoff (honouring `retry-after`). Other failures are returned at once. The server answers
 * 503/429 before it changes anything, so a retried POST is not applied twice.
 */
export function retryingFetch(inner: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 4;
  const base = options.baseDelayMs ?? 250;
  const max = options.maxDelayMs ?? 10_000;
  const backoff = (attempt: number) => Math.min(max, base * 2 ** attempt) * (0.5 + Math.random() / 2);

  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await inner(request.clone());
      } catch (err) {
        if (attempt >= retries || !retryableNetworkError(err, request.method)) throw err;
        await sleep(backoff(attempt));
        continue;
      }
      if (attempt >= retries || !RETRY_STATUSES.has(response.status)) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response.headers.get("retry-after"), max) ?? backoff(attempt));
    }
  };
}

/** `retry-after` as seconds or an HTTP date, capped; null when absent or unreadable. */
function retryAfterMs(header: string | null, max: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(max, Math.max(0, ms)) : null;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * A refused connection never reached the server: always safe to retry. A connection cut mid-call
 * (e.g. a keep-alive socket the server closed) may have been processed: retried only when the
 * method is idempotent.
 */
function retryableNetworkError(err: unknown, method: string): boolean {
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  if (code === "ECONNREFUSED") return true;
  return IDEMPOTENT.has(method) && (code === "ECONNRESET" || code === "UND_ERR_SOCKET");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
