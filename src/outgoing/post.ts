import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isPrivateAddress, literalHost } from "./address";
import { OUTGOING_LIMITS } from "./types";

/** What one POST gave: a status (any, 2xx = delivered), or an error before one arrived. */
export type PostResult = { status: number; body: string } | { status: null; error: string };

/**
 * Resolves as Node does, then refuses private addresses unless allowed. It runs at connect time,
 * for the address actually connected to, so a name that resolves to a public address when the
 * subscription is created and to an internal one later (DNS rebinding) is still refused.
 */
const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) =>
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) {
        return callback(
          Object.assign(new Error(`${hostname} resolves only to private addresses`), { code: "EPRIVATE" }),
          "",
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0] as LookupAddress;
      callback(null, first.address, first.family);
    });

/**
 * One bounded POST: `timeoutMs` for all of it (connect, send, status, body), no redirect followed,
 * at most OUTGOING_LIMITS.responseBytes of the response read (then the socket is dropped). Never
 * throws: a failure is an answer.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const target = new URL(url);
  // An address literal is connected to without a lookup: checked here.
  const literal = literalHost(target);
  if (literal && !opts.allowPrivate && isPrivateAddress(literal)) {
    return Promise.resolve({ status: null, error: `${literal} is a private address` });
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: PostResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
        lookup: guardedLookup(opts.allowPrivate),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < OUTGOING_LIMITS.responseBytes) chunks.push(chunk);
          size += chunk.length;
          if (size >= OUTGOING_LIMITS.responseBytes) {
            res.destroy();
            finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
          }
        });
        res.on("end", () =>
          finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", () =>
          finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) =>
      finish({ status: null, error: err.code ? `${err.code}: ${err.message}` : err.message }),
    );
    req.end(body);
  });
}
