import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { sqlState } from "../db/sql-state";
import { DomainError, type ErrorCode } from "../lib/errors";
import type { Logger } from "../lib/logger";

/** The one error envelope every failure uses. */
export type ErrorBody = {
  error: { code: ErrorCode; message: string; requestId: string; details?: Record<string, unknown> };
};

/** The one status of each error code. Exhaustive: a new `ErrorCode` without a status fails the typecheck. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  invalid_signature: 401,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  not_configured: 501,
  invalid_provider_answer: 502,
  reflection_failed: 502,
  unavailable: 503,
  retrieve_timeout: 503,
  llm_budget_exhausted: 429,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;

/** Statuses Hono's own middleware throws (as `HTTPException`), as our codes. */
const HTTP_EXCEPTION_CODE: Partial<Record<number, ErrorCode>> = {
  400: "invalid_request",
  401: "unauthorized",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/** Builds the envelope response; the status follows from the code. */
export function errorResponse(
  c: Context,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
) {
  const body: ErrorBody = { error: { code, message, requestId: c.get("requestId") ?? "unknown" } };
  if (details) body.error.details = details;
  return c.json(body, ERROR_STATUS[code]);
}

type Issue = ZodError["issues"][number];

/**
 * A union (one memory | a batch) fails in every branch; report the branch the input came
 * closest to (fewest issues), with paths made absolute, so the message names the real field.
 */
function flattenUnions(issues: Issue[]): Issue[] {
  return issues.flatMap((i) => {
    if (i.code !== "invalid_union" || !("errors" in i) || i.errors.length === 0) return [i];
    const best = [...i.errors].sort((a, b) => a.length - b.length)[0] ?? [];
    return flattenUnions(best.map((b) => ({ ...b, path: [...i.path, ...b.path] }) as Issue));
  });
}

/** zod issues → a 400 that names the first offending field (and lists all). */
export function validationError(c: Context, error: ZodError, where: string) {
  const issues = flattenUnions(error.issues).map((i) => ({
    field: [where, ...i.path.map(String)].join("."),
    message: i.message,
  }));
  const first = issues[0];
  const message = first ? `${first.field}: ${first.message}` : `invalid ${where}`;
  return errorResponse(c, "invalid_request", message, { field: first?.field, issues });
}

/**
 * A Citus coordinator's word for a worker lost mid-transaction (a connection it had open broke):
 * an internal error (XX000) by code, so told apart by its message.
 */
const CITUS_WORKER_LOST = /^(failure on connection marked as essential|connection to the remote node)/;

/** True for errors that mean the database (or another dependency) cannot be reached. */
export function isUnavailable(err: unknown): boolean {
  const code = sqlState(err);
  const message = (err as { cause?: { message?: unknown } })?.cause?.message ?? (err as Error)?.message;
  return (
    typeof code === "string" &&
    // Class 08 is how a Citus coordinator reports a worker it cannot reach (08006, naming the node).
    (code.startsWith("08") ||
      (code === "XX000" && typeof message === "string" && CITUS_WORKER_LOST.test(message)) ||
      [
        "ECONNREFUSED",
        "ECONNRESET",
        "ETIMEDOUT",
        "CONNECT_TIMEOUT",
        "CONNECTION_CLOSED",
        "CONNECTION_ENDED",
        "57P01",
        "57P03",
      ].includes(code))
  );
}

/** Maps anything thrown in a handler to the envelope; unknown errors log once and hide internals. */
export function onError(logger: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof DomainError) return errorResponse(c, err.code, err.message, err.details);
    const httpCode = err instanceof HTTPException ? HTTP_EXCEPTION_CODE[err.status] : undefined;
    // Hono's validator says only "Unsupported Media Type"; say what to send (curl -d sends a form type).
    if (httpCode === "unsupported_media_type") {
      const sent = c.req.header("content-type") ?? "none";
      return errorResponse(
        c,
        httpCode,
        `the body must be JSON: send Content-Type: application/json (got ${sent})`,
      );
    }
    if (httpCode) return errorResponse(c, httpCode, err.message || httpCode.replaceAll("_", " "));
    if (isUnavailable(err)) {
      logger.warn("dependency unavailable", { requestId: c.get("requestId"), error: String(err) });
      return errorResponse(c, "unavailable", "the database is unreachable; retry later");
    }
    logger.error("unhandled error", { requestId: c.get("requestId"), error: err.stack ?? String(err) });
    return errorResponse(c, "internal", "internal error");
  };
}
