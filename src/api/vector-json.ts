import type { IncomingMessage } from "node:http";
import { LIMITS } from "../memory/limits";

/** Reads `length` bytes of a request into a buffer of its own (it moves to the body thread). */
export const readWhole = (incoming: IncomingMessage, length: number): Promise<Buffer> =>
  readInto(incoming, length, Buffer.allocUnsafeSlow(length), () => {});

/**
 * Reads `length` bytes of a request into one pooled buffer, feeding each chunk to a VectorScanner,
 * and parses them.
 */
export async function readScanning(incoming: IncomingMessage, length: number): Promise<unknown> {
  const buffer = bodyBuffers.take(length);
  const scanner = new VectorScanner();
  try {
    await readInto(incoming, length, buffer, (received) => scanner.feed(buffer, received));
    return parseScanned(scanner, buffer);
  } finally {
    // parseScanned copied out everything it keeps (vectors, decoded text): the bytes are free.
    bodyBuffers.give(buffer);
  }
}

/**
 * Reads `length` bytes of a request into `buffer`, calling `onChunk` with the count received so
 * far before the last chunk. Node's HTTP parser delivers at most Content-Length bytes (the body
 * limit checked that length before), and a request that ends short or breaks off rejects.
 */
function readInto(
  incoming: IncomingMessage,
  length: number,
  buffer: Buffer,
  onChunk: (received: number) => void,
): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let received = 0;
    let done = false;
    const settle = (f: () => void) => {
      if (done) return;
      done = true;
      incoming.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      f();
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > length) return settle(() => reject(new Error("body longer than stated")));
      chunk.copy(buffer, received);
      received += chunk.length;
      if (received < length) onChunk(received);
    };
    const onEnd = () =>
      settle(() =>
        received === length
          ? resolve(buffer)
          : reject(new Error(`body ended at ${received} of ${length} bytes`)),
      );
    const onError = (err: Error) => settle(() => reject(err));
    // A client that sent the whole body and then closed still gets its answer's chance ('end' first).
    const onClose = () => (incoming.readableEnded ? onEnd() : onError(new Error("request closed")));
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/**
 * Body buffers kept for the next batch. A 1,000 × 1,536-d batch is a 30 MB buffer; allocated per
 * request, it is memory outside V8's heap that V8 counts towards its next full collection, and
 * garbage collection took 11 % of the service's time on such batches (docs/adr/0003).
 * At most `keep` buffers of `minBytes` to `maxBytes` each are kept, so the pool holds at most
 * keep × maxBytes; a buffer is reused only for a body that fits it, and only once at a time (a
 * buffer is given back when its request's body has been parsed).
 */
class BufferPool {
  private readonly free: Buffer[] = [];
  constructor(
    private readonly keep: number,
    private readonly minBytes: number,
    private readonly maxBytes: number,
  ) {}

  take(length: number): Buffer {
    // Small bodies come from Node's own slab pool; of the kept buffers, the smallest that fits.
    if (length < this.minBytes) return Buffer.allocUnsafe(length);
    let best = -1;
    this.free.forEach((b, i) => {
      if (b.length >= length && (best < 0 || b.length < (this.free[best] as Buffer).length)) best = i;
    });
    if (best < 0) return Buffer.allocUnsafeSlow(length);
    const [b] = this.free.splice(best, 1);
    return (b as Buffer).subarray(0, length);
  }

  give(view: Buffer): void {
    if (view.length < this.minBytes) return;
    const b = Buffer.from(view.buffer, 0, view.buffer.byteLength);
    if (b.length > this.maxBytes) return;
    // Full: the smallest kept buffer makes room for a larger one.
    if (this.free.length >= this.keep) {
      this.free.sort((x, y) => x.length - y.length);
      if ((this.free[0] as Buffer).length >= b.length) return;
      this.free.shift();
    }
    this.free.push(b);
  }
}
const bodyBuffers = new BufferPool(2, 256 * 1024, 64 * 1024 * 1024);

/**
 * Parses a `POST /memories` body as `JSON.parse` would, except that each memory's `embedding`
 * given as an array of numbers comes back as the `Float32Array` it is stored as (float4).
 *
 * Why: `JSON.parse` spent ~40 % of the service's CPU on a batch of 512-d vectors (a double
 * per ~20 characters, then boxed in an array, then converted again for COPY;
 * docs/adr/0003). Here the vectors' bytes are read once, straight into float32, and
 * `JSON.parse` only sees the rest of the body with each such array replaced by `0`.
 *
 * Same answer as `Math.fround(JSON.parse(...))` bit for bit: a number is computed from its
 * digits in double arithmetic (error < 1e-15 relative), and kept only when every double within
 * 1e-14 of it rounds to the same float32 — so the correctly rounded double `JSON.parse` gives
 * does too; otherwise (about one number in 10^7, and exponents past ±22 or over 40 digits) it
 * is read by `Number`. Anything this does not recognise as an embedding array of finite float4
 * numbers at the top level or in `memories[i]` (an empty or too long array, a string, a
 * duplicated or escaped key, malformed JSON) leaves the whole body to plain `JSON.parse`, so
 * errors and their messages are the validators' as before.
 */
export function parseMemoriesJson(bytes: Uint8Array): unknown {
  return parseScanned(new VectorScanner(), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** The body from a scanner fed some prefix of `bytes` (or none), as `parseMemoriesJson` gives it. */
export function parseScanned(scanner: VectorScanner, bytes: Buffer): unknown {
  const fast = scanner.finish(bytes, bytes.length);
  if (!fast) return JSON.parse(decoder.decode(bytes));
  const body = JSON.parse(fast.text) as Record<string, unknown> & { memories?: Record<string, unknown>[] };
  for (const [memory, vector] of fast.vectors) {
    const target = memory < 0 ? body : body.memories?.[memory];
    if (target) target.embedding = vector;
  }
  return body;
}

const decoder = new TextDecoder();
const Q = 0x22;
const BACKSLASH = 0x5c;
const EMBEDDING = Buffer.from('"embedding"');
const MEMORIES = Buffer.from('"memories"');
// Roles of a container: the body itself, its `memories` array, one memory in it, anything else.
const ROOT = 0;
const LIST = 1;
const MEMORY = 2;
const OTHER = 3;
type Frame = { object: boolean; role: number; key: Uint8Array | null; seen: number };

/**
 * Reads a body's bytes as they arrive: `feed(buffer, received)` scans up to `received` (the bytes
 * before it never change again) and stops before a string or vector that is not complete yet,
 * to resume there on the next call; `finish(buffer, length)` ends the scan. The result is the
 * body with its embedding arrays replaced by `0` and the vectors by memory index (-1: the body),
 * or null when the body is to be left to `JSON.parse` (see parseMemoriesJson).
 * Why incremental: a batch of 1,000 × 1,536-d vectors is 30 MB of text; scanned while it is still
 * arriving, most of the scan overlaps the transfer instead of following it.
 */
export class VectorScanner {
  private readonly stack: Frame[] = [];
  private readonly parts: string[] = [];
  private readonly vectors: [number, Float32Array][] = [];
  private from = 0;
  private memories = 0;
  private at = 0;
  private failed = false;
  // Where a paused string or vector got to, so the next feed resumes there instead of rescanning
  // from the token's start: rescanning made a long string (or blanks after one) quadratic in the
  // body's length (a 33 MB string of escaped quotes never answered).
  private pendingAt = -1;
  private pendingClose = -1;
  private pendingFrom = 0;

  /** Scans `buffer[0, received)`; false once the body is known to be left to `JSON.parse`. */
  feed(buffer: Buffer, received: number): boolean {
    if (!this.failed && this.scan(buffer.subarray(0, received), false) === false) this.failed = true;
    return !this.failed;
  }

  finish(buffer: Buffer, length: number): { text: string; vectors: [number, Float32Array][] } | null {
    const b = buffer.subarray(0, length);
    if (this.failed || this.scan(b, true) === false || this.vectors.length === 0) return null;
    if (this.stack.length > 0) return null; // unbalanced: JSON.parse words it
    this.parts.push(decoder.decode(b.subarray(this.from)));
    return { text: this.parts.join(""), vectors: this.vectors };
  }

  /** Scans from `this.at` to the end of `b`; false: give up; true: scanned or paused. */
  private scan(b: Buffer, final: boolean): boolean {
    const { stack, parts, vectors } = this;
    for (let i = this.at; i < b.length; i++) {
      const c = b[i] as number;
      // Blanks between tokens (a body padded with megabytes of them): nothing to do.
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      const top = stack[stack.length - 1];
      // `memories` holding anything but objects: leave it to the validator (and keep indexes simple).
      if (top?.role === LIST && c !== 0x7b && c !== 0x2c && c !== 0x5d && !isBlank(c)) return false;
      if (c === Q) {
        const start = i;
        const resumed = this.pendingAt === start;
        let close = resumed ? this.pendingClose : -1;
        if (close < 0) {
          const found = closingQuote(b, resumed ? this.pendingFrom : i + 1);
          if (found.close < 0) return this.pause(start, final, -1, found.resume);
          close = found.close;
        }
        i = close;
        // A key: the next non-blank byte is a colon.
        let j = resumed && this.pendingClose >= 0 ? Math.max(i + 1, this.pendingFrom) : i + 1;
        while (j < b.length && isBlank(b[j] as number)) j++;
        if (j === b.length && !final) return this.pause(start, final, close, j);
        this.pendingAt = -1;
        if (top?.object && b[j] === 0x3a) {
          top.key = b.subarray(start, i + 1);
          if (top.key.includes(BACKSLASH)) return false; // "embe\u0064ding" is the same key to JSON.parse
          const bit = same(top.key, EMBEDDING) ? 1 : same(top.key, MEMORIES) ? 2 : 0;
          if (bit && top.seen & bit) return false; // a duplicated key: JSON.parse keeps the last
          top.seen |= bit;
        }
      } else if (c === 0x7b || c === 0x5b) {
        const parent = top?.role;
        const key = top?.object ? top.key : null;
        if (c === 0x5b && key && (parent === ROOT || parent === MEMORY) && same(key, EMBEDDING)) {
          // A vector's first `]` ends it; until that has arrived, wait for more.
          if (!final) {
            const from = this.pendingAt === i ? this.pendingFrom : i;
            if (b.indexOf(0x5d, from) < 0) return this.pause(i, final, -1, b.length);
            this.pendingAt = -1;
          }
          const read = readVector(b, i);
          if (!read) return false;
          parts.push(decoder.decode(b.subarray(this.from, i)), "0");
          vectors.push([parent === ROOT ? -1 : this.memories - 1, read.vector]);
          this.from = read.end;
          i = read.end - 1;
          continue;
        }
        let role = OTHER;
        if (!top) role = c === 0x7b ? ROOT : OTHER;
        else if (c === 0x5b && parent === ROOT && key && same(key, MEMORIES)) role = LIST;
        else if (c === 0x7b && parent === LIST) {
          role = MEMORY;
          this.memories++;
        }
        stack.push({ object: c === 0x7b, role, key: null, seen: 0 });
      } else if (c === 0x7d || c === 0x5d) {
        stack.pop();
      }
    }
    this.at = b.length;
    return true;
  }

  /**
   * Stops before the token at `at` until more has arrived; at the end, gives up (malformed).
   * `close` (a string's closing quote, or -1) and `from` (where the search stopped) let the next
   * feed resume where this one stopped.
   */
  private pause(at: number, final: boolean, close: number, from: number): boolean {
    this.at = at;
    this.pendingAt = at;
    this.pendingClose = close;
    this.pendingFrom = from;
    return !final;
  }
}

/**
 * The closing quote of a string whose text starts at `from` (a position no backslash escapes), or
 * -1 and where to resume once more has arrived. Strings without escapes are searched natively
 * (base64 vectors are 8 KB strings); once a backslash shows up before the next quote, the rest is
 * walked byte by byte, stepping over each escaped byte: linear whatever the string holds (a 33 MB
 * string of escaped quotes, one native search per quote, took seconds).
 */
function closingQuote(b: Uint8Array, from: number): { close: number; resume: number } {
  // Nothing new yet (or the byte an escape waits for has not arrived).
  if (from >= b.length) return { close: -1, resume: from };
  // Short strings (keys, most values) are walked here: a native search costs more per call.
  const short = Math.min(b.length, from + 64);
  while (from < short) {
    const c = b[from] as number;
    if (c === Q) return { close: from, resume: 0 };
    from += c === BACKSLASH ? 2 : 1;
  }
  if (from >= b.length) return { close: -1, resume: from };
  const q = b.indexOf(Q, from);
  const backslash = b.subarray(from, q < 0 ? b.length : q).indexOf(BACKSLASH);
  if (backslash < 0) return q < 0 ? { close: -1, resume: b.length } : { close: q, resume: 0 };
  let j = from + backslash;
  while (j < b.length) {
    const c = b[j] as number;
    if (c === BACKSLASH) j += 2;
    else if (c === Q) return { close: j, resume: 0 };
    else j++;
  }
  // j is past the end, by one when the last byte escapes the next one to arrive.
  return { close: -1, resume: j };
}

/**
 * Vectors are read into slabs of this many floats and handed out as views of them: a thousand
 * vectors of a batch are then a few allocations outside V8's heap instead of a thousand (each
 * counts towards V8's next full collection). A region is handed out once and never rewritten; a
 * slab lives until the last vector in it is dropped (at the end of the request that wrote it).
 */
const SLAB_FLOATS = 256 * 1024;
let slab = new Float32Array(SLAB_FLOATS);
let slabUsed = 0;

/** `[n, n, …]` at `at`: its values as float32 and the offset after `]`, or null if anything else. */
function readVector(b: Uint8Array, at: number): { vector: Float32Array; end: number } | null {
  // Room for the longest vector accepted; a vector given up on leaves its region to the next.
  if (slabUsed + LIMITS.maxDimensions > slab.length) {
    slab = new Float32Array(Math.max(SLAB_FLOATS, LIMITS.maxDimensions));
    slabUsed = 0;
  }
  let i = at + 1;
  let n = 0;
  for (;;) {
    while (isBlank(b[i] as number)) i++;
    const start = i;
    let c = b[i] as number;
    const negative = c === 0x2d;
    if (negative) c = b[++i] as number;
    if (c < 0x30 || c > 0x39) return null; // `]` of an empty array, a string, null…
    let m = 0;
    let digits = 0;
    let fraction = 0;
    // JSON forbids leading zeros ("01"); let JSON.parse refuse them.
    if (c === 0x30 && (b[i + 1] as number) >= 0x30 && (b[i + 1] as number) <= 0x39) return null;
    for (; c >= 0x30 && c <= 0x39; c = b[++i] as number, digits++) m = m * 10 + (c - 0x30);
    if (c === 0x2e) {
      c = b[++i] as number;
      if (c < 0x30 || c > 0x39) return null;
      for (; c >= 0x30 && c <= 0x39; c = b[++i] as number, digits++, fraction++) m = m * 10 + (c - 0x30);
    }
    let exponent = 0;
    if (c === 0x65 || c === 0x45) {
      c = b[++i] as number;
      const down = c === 0x2d;
      if (c === 0x2d || c === 0x2b) c = b[++i] as number;
      if (c < 0x30 || c > 0x39) return null;
      for (; c >= 0x30 && c <= 0x39 && exponent < 1e6; c = b[++i] as number)
        exponent = exponent * 10 + (c - 0x30);
      if (down) exponent = -exponent;
    }
    const scale = exponent - fraction;
    let x = Number.NaN;
    if (digits <= 40 && scale >= -22 && scale <= 22) {
      const v = scale < 0 ? m / (POW10[-scale] as number) : m * (POW10[scale] as number);
      const f = Math.fround(v);
      // Up to 15 digits, `m` is exact and `v` is the correctly rounded double (one rounding).
      if (digits <= 15 || (Math.fround(v * (1 - 1e-14)) === f && Math.fround(v * (1 + 1e-14)) === f))
        x = negative ? -f : f;
    }
    if (Number.isNaN(x)) x = Math.fround(Number(decoder.decode(b.subarray(start, i))));
    // Near or past float4's range: the validator decides (and words it), on the slow path.
    if (!(Math.abs(x) < 1e38) || n >= LIMITS.maxDimensions) return null;
    slab[slabUsed + n++] = x;
    while (isBlank(b[i] as number)) i++;
    if (b[i] === 0x2c) {
      i++;
      continue;
    }
    if (b[i] !== 0x5d) return null;
    const vector = slab.subarray(slabUsed, slabUsed + n);
    slabUsed += n;
    return { vector, end: i + 1 };
  }
}

// Literals, each exact in a double (10^22 is the last power of ten that is).
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];

const isBlank = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
