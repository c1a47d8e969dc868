import pino, { type DestinationStream } from "pino";

/**
 * Structured JSON logs (pino) on stderr. The domain code sees only this small interface, so a
 * log call reads the same everywhere — `logger.info("message", { fields })` — and tests can pass
 * `silentLogger` or capture lines with their own destination.
 */
export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose every line carries `fields` (e.g. a request id). */
  child(fields: Record<string, unknown>): Logger;
};

export type LogLevel = "debug" | "info" | "warn" | "error";

function wrap(p: pino.Logger): Logger {
  return {
    debug: (msg, fields) => p.debug(fields ?? {}, msg),
    info: (msg, fields) => p.info(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    error: (msg, fields) => p.error(fields ?? {}, msg),
    child: (fields) => wrap(p.child(fields)),
  };
}

/**
 * Logs at `level` and above as one JSON object per line: `level` as a name, `time` as ISO text,
 * `msg`, then `base` and the call's fields. Synchronous writes to stderr, so the last line before a
 * crash or `process.exit` is not lost in a buffer.
 */
export function createLogger(
  level: LogLevel = "info",
  base: Record<string, unknown> = {},
  destination: DestinationStream = pino.destination({ dest: 2, sync: true }),
): Logger {
  return wrap(
    pino(
      {
        level,
        base,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        // Errors passed as fields keep their message and stack.
        serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      },
      destination,
    ),
  );
}

const noop = () => {};
/** Discards everything (tests that check behaviour, not logs). */
export const silentLogger: Logger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};
