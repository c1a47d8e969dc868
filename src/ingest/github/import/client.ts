import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import type { Logger } from "../../../lib/logger";

const ImportOctokit = Octokit.plugin(throttling, retry);
export type GithubClient = InstanceType<typeof ImportOctokit>;

/** Rate-limit waits in a row after which the import gives up (it resumes where it stopped). */
const MAX_RATE_LIMIT_WAITS = 10;

export type GithubClientOptions = {
  token: string | null;
  baseUrl: string;
  logger: Logger;
  /** Called on every rate-limit answer, with the wait GitHub asked for. */
  onRateLimit?: (waitSeconds: number) => void;
  /**
   * Milliseconds per second of wait and per retry step. 1000 in production (GitHub's
   * `retry-after` and reset times are in seconds); tests shrink it to keep stubbed waits short.
   */
  timeUnitMs?: number;
};

/**
 * An Octokit for the repository import: pagination (`paginate.iterator` follows `Link: rel="next"`),
 * the throttling plugin (waits out primary and secondary rate limits until the reset GitHub names,
 * then retries) and the retry plugin (5xx and network errors, 3 retries with growing delays).
 */
export function createGithubClient(opts: GithubClientOptions): GithubClient {
  const unit = opts.timeUnitMs ?? 1000;
  const onLimit =
    (kind: string) =>
    (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
      opts.onRateLimit?.(retryAfter);
      opts.logger.warn(`GitHub ${kind} rate limit: waiting`, {
        seconds: retryAfter,
        url: options.url,
        retryCount,
      });
      return retryCount < MAX_RATE_LIMIT_WAITS;
    };
  return new ImportOctokit({
    ...(opts.token ? { auth: opts.token } : {}),
    baseUrl: opts.baseUrl,
    userAgent: "memstream-github-import",
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    throttle: {
      onRateLimit: onLimit("primary"),
      onSecondaryRateLimit: onLimit("secondary"),
      retryAfterBaseValue: unit,
      fallbackSecondaryRateRetryAfter: 60,
    },
    retry: { retryAfterBaseValue: unit, retries: 3 },
  });
}
