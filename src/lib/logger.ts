/** A tiny structured logger (JSON lines on stderr); enough until we need more. */
export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

const ORDER = { debug: 0, info: 1, warn: 2, error: 3 } as const;
type Level = keyof typeof ORDER;

/** Logs at `level` and above. */
export function createLogger(level: Level = "info", base: Record<string, unknown> = {}): Logger {
  const log = (l: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    process.stderr.write(
      `${JSON.stringify({ t: new Date().toISOString(), level: l, msg, ...base, ...fields })}\n`,
    );
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** Discards everything (tests that check behaviour, not logs). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
