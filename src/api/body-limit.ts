import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import type { AppEnv } from "./env";

/**
 * Hono's body limit, without touching the body when the request states its length.
 * Why: hono's middleware reads `c.req.raw.body` before it looks at Content-Length, and on
 * @hono/node-server that getter turns the request into a full web `Request` whose body is a web
 * stream: the route's JSON is then read through undici (stream chunks, a copy, a decode) instead
 * of node-server's direct read of the socket into one buffer — ~10% of a 1,000-memory batch's
 * CPU (docs/adr/0003). Node's HTTP parser never delivers more than Content-Length bytes,
 * so the header alone decides; without it (chunked uploads, in-process `app.request`) hono's
 * counting stream applies as before.
 */
export function bodyLimit(opts: { maxSize: number; onError: (c: Context<AppEnv>) => Response }) {
  const counted = honoBodyLimit(opts);
  const limit: MiddlewareHandler<AppEnv> = async (c, next) => {
    // As hono's: a GET or HEAD has no body to limit.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return counted(c, next);
    if (Number.parseInt(length, 10) > opts.maxSize) return opts.onError(c);
    await next();
  };
  return limit;
}
