import { z } from "zod";

/**
 * Every machine-readable error code the API can answer, in the envelope's `error.code`.
 * `src/api/errors.ts` maps each to exactly one HTTP status (exhaustively: a code added here
 * without a status fails the typecheck); the OpenAPI document lists them as an enum.
 */
export const ErrorCode = z.enum([
  "invalid_request",
  "unauthorized",
  "invalid_signature",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "internal",
  "not_configured",
  "invalid_provider_answer",
  "reflection_failed",
  "unavailable",
  "retrieve_timeout",
  "llm_budget_exhausted",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * Typed domain errors. Domain code throws these with no HTTP in them; `src/api/errors.ts`
 * maps them to the one JSON error envelope.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The thing asked for does not exist (for this agent). */
export class NotFound extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("not_found", message, details);
  }
}

/** Input that passed schema validation but breaks a rule or limit. `field` names the culprit. */
export class Invalid extends DomainError {
  constructor(message: string, details?: Record<string, unknown> & { field?: string }) {
    super("invalid_request", message, details);
  }
}

/** A body of a media type the operation does not read. */
export class UnsupportedMediaType extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("unsupported_media_type", message, details);
  }
}

/** The request conflicts with the current state (e.g. a reflection already running). */
export class Conflict extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("conflict", message, details);
  }
}

/** A feature that needs configuration that is absent (e.g. reflection without an LLM). */
export class NotConfigured extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("not_configured", message, details);
  }
}

/** A dependency (database, Redis, provider) is unreachable; maps to 503. */
export class Unavailable extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("unavailable", message, details);
  }
}

/** A retrieve's statements ran past their bound (MEMSTREAM_RETRIEVE_TIMEOUT_MS); maps to 503. */
export class RetrieveTimeout extends DomainError {
  constructor(limitMs: number) {
    super(
      "retrieve_timeout",
      `the retrieve ran past its bound of ${limitMs} ms (MEMSTREAM_RETRIEVE_TIMEOUT_MS) and was cancelled; retry, or narrow it with filters or a smaller k`,
      { limitMs, setting: "MEMSTREAM_RETRIEVE_TIMEOUT_MS" },
    );
  }
}

/** A provider answered, but with nothing usable (e.g. an importance reply with no score). Retryable. */
export class InvalidProviderAnswer extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("invalid_provider_answer", message, details);
  }
}

/** A signed request (a GitHub webhook) whose signature is missing or matches no configured secret. */
export class InvalidSignature extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("invalid_signature", message, details);
  }
}

/** A reflection run failed (its LLM or embedder call did); the run is recorded as `failed`. Maps to 502. */
export class ReflectionFailed extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("reflection_failed", message, details);
  }
}

/** The agent's daily LLM budget is spent; the work waits for the next day. Maps to 429. */
export class BudgetExhausted extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("llm_budget_exhausted", message, details);
  }
}
