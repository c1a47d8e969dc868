import OpenAI from "openai";
import { Unavailable } from "../lib/errors.js";

export type OpenAIClientOptions = {
  /** Base URL of an OpenAI-compatible API, ending in `/v1` (OpenAI, Ollama, vLLM, LM Studio). */
  baseURL: string;
  /** Local servers usually need none; a placeholder is sent so the SDK does not demand one. */
  apiKey?: string;
  /** Per-attempt timeout. Default 60 s: embedding and short chat calls finish well inside it. */
  timeoutMs?: number;
  /**
   * Retries the SDK makes itself on connection errors, 408, 409, 429 and 5xx, with exponential
   * backoff (0.5 s doubling, max 8 s, jittered) that honours `retry-after` / `retry-after-ms`.
   * Default 2, i.e. at most 3 attempts per call. Queue jobs add their own retries on top.
   */
  maxRetries?: number;
};

export const DEFAULT_OPENAI_TIMEOUT_MS = 60_000;
export const DEFAULT_OPENAI_MAX_RETRIES = 2;

/** Builds the `openai` SDK client for an OpenAI-compatible server from explicit configuration. */
export function createOpenAIClient(opts: OpenAIClientOptions): OpenAI {
  // Every option the SDK would otherwise read from OPENAI_* environment variables that changes
  // where requests go or who they bill is pinned here, so config stays the single source.
  return new OpenAI({
    baseURL: opts.baseURL,
    apiKey: opts.apiKey ?? "not-needed",
    organization: null,
    project: null,
    timeout: opts.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS,
    maxRetries: opts.maxRetries ?? DEFAULT_OPENAI_MAX_RETRIES,
  });
}

/**
 * Maps an error from the SDK to our errors, once its own retries are spent. Unreachable,
 * timed out, rate limited (429) and server errors (5xx) become `Unavailable` (transient, 503);
 * other API errors (400 bad model, 401 key, ...) are configuration faults and are rethrown as
 * the SDK's `APIError`, whose message already carries the status and the server's message.
 */
export function mapOpenAIError(err: unknown, operation: string): unknown {
  if (err instanceof OpenAI.APIConnectionError) {
    return new Unavailable(`${operation}: ${err.message}`, { cause: err.message });
  }
  if (err instanceof OpenAI.APIError && (err.status === 429 || (err.status ?? 0) >= 500)) {
    return new Unavailable(`${operation}: ${err.message}`, { status: err.status });
  }
  return err;
}
