import type { PGlite } from "@electric-sql/pglite";

/** The `application_name` of the in-process workers' connection (src/db/client.ts): served last. */
export const BACKGROUND_APPLICATION = "memstream-background";
/** A background exchange that has waited this long goes next, so a busy API never starves the workers. */
const BACKGROUND_MAX_WAIT_MS = 250;

type Item = {
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: Error) => void;
  at: number;
};
type Connection = { items: Item[]; background: boolean | null };

/** The statistics check after writes (pglite-analyze.ts): which messages write, and the check. */
export type WriteCheck = { names(message: Uint8Array): boolean; run(): Promise<void> };

/**
 * The embedded database's one backend shared by several wire connections (the API's and the
 * workers', src/db/client.ts), in the shape of pglite-socket's query queue (its handlers call
 * `enqueue`). Two rules pglite-socket's own queue does not keep:
 * - **Exchanges are atomic.** Once a connection's message has run, only that connection's messages
 *   run until it has ended an exchange (a Sync or a simple Query) outside a transaction: another
 *   connection's Parse would replace the unnamed statement between a Parse and its Execute, and its
 *   statements would run inside the first one's transaction.
 * - **The API goes first.** Between exchanges, a connection that is not the workers' is served
 *   before them (a batch POST otherwise waited behind the enrichment's statements); a workers'
 *   exchange that has waited BACKGROUND_MAX_WAIT_MS goes next anyway.
 * The statistics check (pglite-analyze.ts) runs between exchanges: right after an API exchange
 * that wrote, so what the API asks next is planned with statistics of what it wrote; after the
 * workers' writes (a chunk of enrichment at a time) only before their next exchange or when
 * nothing waits, so an ANALYZE they made due does not hold a waiting API request.
 */
export class ExchangeScheduler {
  private readonly connections = new Map<number, Connection>();
  /** The connection whose exchange is open, if any. */
  private owner: number | null = null;
  private running = false;
  private pumping: Promise<void> = Promise.resolve();
  /** Writes since the last statistics check, by the API's connections and by the workers'. */
  private wrote = { api: false, background: false };

  constructor(
    private readonly db: PGlite,
    private readonly check: WriteCheck | null = null,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      const c = this.connection(handlerId);
      // The first message of a connection is its startup message: its application_name says whose it is.
      if (c.background === null) c.background = applicationName(message) === BACKGROUND_APPLICATION;
      c.items.push({ message, onData, resolve, reject, at: performance.now() });
      this.kick();
    });
  }

  getQueueLength(): number {
    let n = 0;
    for (const c of this.connections.values()) n += c.items.length;
    return n;
  }

  clearQueueForHandler(handlerId: number): void {
    const c = this.connections.get(handlerId);
    for (const item of c?.items.splice(0) ?? []) item.reject(new Error("Handler disconnected"));
    this.connections.delete(handlerId);
  }

  /** A connection gone mid-exchange: its transaction is rolled back and the backend is free again. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    this.kick();
  }

  /** Resolves once nothing runs (close waits for a statistics check in progress). */
  settled(): Promise<void> {
    return this.pumping;
  }

  private kick(): void {
    if (!this.running) this.pumping = this.pump();
  }

  /** One statistics check covers every write so far. */
  private async runCheck(): Promise<void> {
    this.wrote = { api: false, background: false };
    await this.check?.run();
  }

  private connection(id: number): Connection {
    let c = this.connections.get(id);
    if (!c) {
      c = { items: [], background: null };
      this.connections.set(id, c);
    }
    return c;
  }

  /** The next connection to serve: the open exchange's, else the API's, else the oldest waiting workers'. */
  private next(): number | null {
    if (this.owner !== null) return this.connections.get(this.owner)?.items.length ? this.owner : null;
    const now = performance.now();
    let api: [number, number] | null = null;
    let background: [number, number] | null = null;
    for (const [id, c] of this.connections) {
      const first = c.items[0];
      if (!first) continue;
      if (c.background && now - first.at >= BACKGROUND_MAX_WAIT_MS) return id;
      const slot = c.background ? background : api;
      if (slot && slot[1] <= first.at) continue;
      if (c.background) background = [id, first.at];
      else api = [id, first.at];
    }
    return (api ?? background)?.[0] ?? null;
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        // Between exchanges, a turn of the event loop: a connection's socket data that arrived
        // meanwhile is read and queued (running one message after another is all promises, and
        // pipelined messages of one connection would otherwise always go first).
        if (this.owner === null) await new Promise((resolve) => setImmediate(resolve));
        const id = this.next();
        const c = id === null ? null : (this.connections.get(id) as Connection);
        // Between exchanges: the workers' writes are checked before their next exchange or when idle.
        if (this.owner === null && this.wrote.background && (c === null || c.background)) {
          await this.runCheck();
          continue;
        }
        if (id === null || c === null) return;
        const item = c.items.shift() as Item;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (err) {
          item.reject(err as Error);
          continue;
        }
        if (this.check?.names(item.message)) this.wrote[c.background ? "background" : "api"] = true;
        const settled = endsExchange(item.message) && !this.db.isInTransaction();
        this.owner = settled ? null : id;
        item.resolve(bytes);
        if (settled && this.wrote.api) await this.runCheck();
      }
    } finally {
      this.running = false;
    }
  }
}

/** A Sync, a simple Query, or a startup message (no type byte: its length comes first). */
function endsExchange(message: Uint8Array): boolean {
  const type = message[0];
  return type === 0x53 /* S */ || type === 0x51 /* Q */ || type === 0;
}

/** The application_name of a startup message (int32 length, int32 protocol, then name/value pairs). */
function applicationName(message: Uint8Array): string | null {
  if (message[0] !== 0) return null;
  const parts = Buffer.from(message.buffer, message.byteOffset, message.byteLength)
    .toString("utf8", 8)
    .split("\0");
  for (let i = 0; i + 1 < parts.length; i += 2)
    if (parts[i] === "application_name") return parts[i + 1] ?? null;
  return null;
}
