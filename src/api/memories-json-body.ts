import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { MiddlewareHandler } from "hono";
import { BODY_THREAD_BYTES, type BodyWork, judgedValue } from "./body-work";
import type { AppEnv } from "./env";
import { parseMemoriesJson, readScanning, readWhole } from "./vector-json";

/**
 * Route middleware: the JSON validator's `c.req.json()` reads the body with `parseMemoriesJson`.
 * Lazy, so a request the validator does not parse as JSON is untouched; a malformed body throws
 * from `JSON.parse` as before (the validator's 400). Served by @hono/node-server with a stated
 * length, the body is read from Node's request straight into one buffer of that length and
 * scanned as it arrives (`readScanning`); otherwise (chunked uploads, in-process `app.request`)
 * it is read whole first. A body of BODY_THREAD_BYTES or more is parsed and validated by `bodies`
 * off the event loop, and the route's schema (acceptJudged) takes its verdict.
 */
export const memoriesJsonBody =
  (bodies: BodyWork): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const length = Number(c.req.header("content-length"));
    const stated =
      Number.isSafeInteger(length) && length > 0 && c.req.header("transfer-encoding") === undefined;
    const direct = incoming instanceof Readable && !incoming.readableDidRead && stated;
    const offLoop = async (bytes: Uint8Array) => {
      const value = await judgedValue(bodies, bytes);
      if (value === null) throw new SyntaxError("malformed JSON");
      return value;
    };
    let body: Promise<unknown> | undefined;
    c.req.json = <T>() => {
      body ??=
        direct && length >= BODY_THREAD_BYTES
          ? readWhole(incoming, length).then(offLoop)
          : direct
            ? readScanning(incoming, length)
            : c.req.arrayBuffer().then((b) => {
                const bytes = new Uint8Array(b);
                return bytes.length >= BODY_THREAD_BYTES ? offLoop(bytes) : parseMemoriesJson(bytes);
              });
      return body as Promise<T>;
    };
    await next();
  };
