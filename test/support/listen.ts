import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

/** A real HTTP server on 127.0.0.1 at a free port, serving `fetch` (the app, as `npm start` does). */
export async function listen(fetch: (req: Request) => Response | Promise<Response>) {
  const server = await new Promise<ReturnType<typeof serve>>((ready) => {
    const s = serve({ fetch, port: 0, hostname: "127.0.0.1" }, () => ready(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
