import type { Config } from "../../config";
import { type Io, type Parsed, str } from "./io";

/** A running server to talk to: its base URL and API key. */
export type Remote = { url: string; key: string | undefined };

/** What a command reaches the data through: requests answered by a server or by the app in this process. */
export type Client = {
  /** `over HTTP to <url>` or `directly (<database>)`, for messages. */
  where: string;
  request(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
};

/** The log level of a command's own system: warnings only, unless MEMSTREAM_LOG_LEVEL says otherwise. */
export const cliLogLevel = (io: Io, config: Config) =>
  io.env.MEMSTREAM_LOG_LEVEL ? config.logLevel : "warn";

/**
 * The server to talk to: --url (or MEMSTREAM_URL), else the server that holds the embedded folder
 * (it announced its URL in the folder's lock; one process owns a folder, docs/adr/0031), else null
 * (open the database here).
 */
export async function remoteOf(args: Parsed, io: Io): Promise<Remote | null> {
  const key = str(args, "key") ?? io.env.MEMSTREAM_API_KEY ?? io.env.MEMSTREAM_KEY;
  const url = str(args, "url") ?? io.env.MEMSTREAM_URL;
  if (url) return { url: url.replace(/\/+$/, ""), key };
  const { loadConfig } = await import("../../config");
  const config = loadConfig(io.env);
  if (config.databaseUrl) return null;
  const { folderOwner } = await import("../../db/folder-lock");
  const owner = folderOwner(config.dataDir);
  if (!owner?.url) return null;
  io.stderr.write(
    `memstream: ${config.dataDir} is held by ${owner.role} (pid ${owner.pid}); using it at ${owner.url}\n`,
  );
  // This process has the same environment as the server it found: its first key opens every agent it may.
  return { url: owner.url, key: key ?? config.apiKeys[0]?.token };
}

/** Requests to a server over HTTP. */
export function httpClient(remote: Remote): Client {
  return {
    where: `the server at ${remote.url}`,
    request: (method, path, body) =>
      fetch(`${remote.url}${path}`, {
        method,
        headers: {
          ...(remote.key ? { authorization: `Bearer ${remote.key}` } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    close: async () => {},
  };
}

/**
 * The API in this process over the configured database: the same routes, validation and answers as
 * a server's, without listening. No API key applies: this process holds the database credentials.
 * Enrichment left pending (importance, vectors) is done by a server's or worker's sweep.
 */
export async function directClient(io: Io, role: string): Promise<Client> {
  const [{ loadConfig }, { composeSystem }, { createApp }, { createLogger }] = await Promise.all([
    import("../../config"),
    import("../../compose"),
    import("../../api/app"),
    import("../../lib/logger"),
  ]);
  const config = loadConfig(io.env);
  const logger = createLogger(cliLogLevel(io, config), { service: "memstream-cli" });
  // Documents are split in this thread: nothing else waits on this process's event loop.
  const system = await composeSystem({ ...config, work: { ...config.work, threads: 0 } }, logger, { role });
  const app = createApp({ ...system.app, config: { ...system.app.config, apiKeys: [] } });
  return {
    where: system.database.kind === "pglite" ? `the embedded database in ${config.dataDir}` : "the database",
    request: async (method, path, body) =>
      app.request(path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    close: () => system.close(),
  };
}

/** A server's client when one is named or holds the folder, else the app in this process. */
export async function openClient(args: Parsed, io: Io, role: string): Promise<Client> {
  const remote = await remoteOf(args, io);
  return remote ? httpClient(remote) : directClient(io, role);
}

/** The JSON of a 2xx answer; otherwise an error with the status and the envelope's code and message. */
export async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (res.ok) return JSON.parse(text) as T;
  throw new Error(`${res.status} ${errorMessage(text)}`);
}

/** `code: message (field)` from the error envelope, or the raw text. */
export function errorMessage(text: string): string {
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string; field?: string } };
    return `${error.code}: ${error.message}${error.field ? ` (${error.field})` : ""}`;
  } catch {
    return text.slice(0, 500);
  }
}
