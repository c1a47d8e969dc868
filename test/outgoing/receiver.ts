import { listen } from "../support/listen";

/** One request the receiver got, as it arrived. */
export type Received = { path: string; headers: Record<string, string>; body: string; at: number };

/**
 * A real HTTP receiver on 127.0.0.1 (the peer of a subscription, not a mock of memstream): records
 * every request with its raw body and answers each path's scripted statuses in turn (then 200).
 */
export async function startReceiver() {
  const got: Received[] = [];
  const script = new Map<string, number[]>();
  const server = await listen(async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    got.push({ path: url.pathname, headers: Object.fromEntries(req.headers), body, at: Date.now() });
    const status = script.get(url.pathname)?.shift() ?? 200;
    return new Response(status === 200 ? "ok" : "nope", { status });
  });
  return {
    url: (path: string) => `${server.url}${path}`,
    /** Answers `path` with these statuses, one per request, then 200. */
    answer: (path: string, ...statuses: number[]) => void script.set(path, statuses),
    got,
    on: (path: string) => got.filter((r) => r.path === path),
    close: server.close,
  };
}
