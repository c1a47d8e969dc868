import type { components } from "./generated/openapi.js";

/** The server's one error envelope (`{ error: { code, message, requestId, details } }`). */
export type ErrorEnvelope = components["schemas"]["Error"];
/** The stable machine code of a failure, e.g. `invalid_request`, `not_found`, `unavailable`. */
export type ErrorCode = ErrorEnvelope["error"]["code"];

/** A failed call: the HTTP status and the server's code, message and request id (quote it in bug reports). */
export class MemstreamError extends Error {
  override readonly name = "MemstreamError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network_error" | "unexpected_response",
    message: string,
    readonly requestId: string | null,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** Builds the error from a response and its parsed body (the envelope, or anything else a proxy sent). */
  static from(response: Response, body: unknown): MemstreamError {
    const envelope = (body as Partial<ErrorEnvelope> | undefined)?.error;
    const requestId = envelope?.requestId ?? response.headers.get("x-request-id");
    if (envelope && typeof envelope.code === "string") {
      return new MemstreamError(
        response.status,
        envelope.code,
        envelope.message,
        requestId,
        envelope.details,
      );
    }
    return new MemstreamError(
      response.status,
      "unexpected_response",
      `HTTP ${response.status} without an error envelope`,
      requestId,
    );
  }
}
