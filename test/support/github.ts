import { createHmac } from "node:crypto";
import { inArray } from "drizzle-orm";
import { githubDeliveries } from "../../src/db/schema";
import type { TestSystem } from "./system";

/** `X-Hub-Signature-256` exactly as GitHub computes it. */
export const sign = (body: string | Uint8Array, secret: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** Posts a webhook delivery through the real app the way GitHub does (headers as GitHub names them). */
export function deliver(
  t: TestSystem,
  opts: {
    event: string;
    id: string;
    body: string | Uint8Array;
    secret?: string;
    headers?: Record<string, string>;
  },
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "GitHub-Hookshot/test",
    "x-github-event": opts.event,
    "x-github-delivery": opts.id,
  };
  if (opts.secret) headers["x-hub-signature-256"] = sign(opts.body, opts.secret);
  return Promise.resolve(
    t.app.request("/webhooks/github", {
      method: "POST",
      headers: { ...headers, ...opts.headers },
      body: opts.body,
    }),
  );
}

type Row = typeof githubDeliveries.$inferSelect;

/** Polls the deliveries table until none of `ids` is still `received`; fails after `timeoutMs`. */
export async function waitForDeliveries(t: TestSystem, ids: string[], timeoutMs = 20_000): Promise<Row[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await t.system.services.db
      .select()
      .from(githubDeliveries)
      .where(inArray(githubDeliveries.id, ids));
    const waiting = ids.length - rows.filter((r) => r.status !== "received").length;
    if (waiting === 0) return rows;
    if (Date.now() > deadline) throw new Error(`${waiting} of ${ids.length} deliveries still not processed`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The stored delivery row, or undefined. */
export async function deliveryRow(t: TestSystem, id: string): Promise<Row | undefined> {
  const [row] = await t.system.services.db
    .select()
    .from(githubDeliveries)
    .where(inArray(githubDeliveries.id, [id]));
  return row;
}

/** Polls until the delivery has `status`; fails after `timeoutMs`. */
export async function waitForStatus(t: TestSystem, id: string, status: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await deliveryRow(t, id);
    if (row?.status === status) return row;
    if (Date.now() > deadline)
      throw new Error(`delivery ${id} is ${row?.status ?? "missing"}, not ${status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
