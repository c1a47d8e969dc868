import { createRoute, z } from "@hono/zod-openapi";
import { parsePayload } from "../../../ingest/github/parse-payload";
import { receiveDelivery } from "../../../ingest/github/receive-delivery";
import { verifySignature } from "../../../ingest/github/signature";
import { Invalid, InvalidSignature, NotConfigured } from "../../../lib/errors";
import type { App, AppDeps } from "../../deps";
import { DELIVERY_EXAMPLE } from "../../examples";
import { errorResponse as error, json } from "../../schemas";

/** GitHub caps webhook payloads at 25 MB; anything larger is not GitHub. */
export const GITHUB_MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;
export const GITHUB_WEBHOOK_PATH = "/webhooks/github";

// GitHub delivery ids are GUIDs and event names snake_case; anything else is refused before storing.
export const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const EVENT = /^[a-z][a-z0-9_]{0,63}$/;

const Accepted = z
  .object({
    deliveryId: z.string(),
    status: z.enum(["accepted", "duplicate"]),
    pong: z.boolean().optional(),
  })
  .openapi("GithubDeliveryAccepted");

const route = createRoute({
  method: "post",
  path: GITHUB_WEBHOOK_PATH,
  operationId: "receiveGithubWebhook",
  tags: ["webhooks"],
  summary: "GitHub webhook receiver",
  description:
    "Point a repository, organization or GitHub App webhook here. Authenticated by `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with a secret from `GITHUB_WEBHOOK_SECRET`), not by an API key. Needs `X-GitHub-Event` and `X-GitHub-Delivery`. Stores the delivery and answers at once; processing is asynchronous (see `GET /v1/webhooks/github/deliveries`).",
  security: [],
  responses: {
    200: json(Accepted, "A redelivery of a known delivery id (nothing new is created), or a ping", {
      deliveryId: DELIVERY_EXAMPLE.id,
      status: "duplicate",
    }),
    202: json(Accepted, "Stored; processing is queued", {
      deliveryId: DELIVERY_EXAMPLE.id,
      status: "accepted",
    }),
    400: error("Missing `X-GitHub-Event`/`X-GitHub-Delivery`, or a body that is not JSON"),
    401: error("Missing or invalid `X-Hub-Signature-256`"),
    413: error(`Body over GitHub's ${GITHUB_MAX_PAYLOAD_BYTES}-byte payload limit`),
    500: error("Unexpected failure, logged with the request id (`internal`)"),
    501: error("`GITHUB_WEBHOOK_SECRET` is not configured: nothing is accepted"),
    503: error("The database is unreachable; GitHub redelivers later (`unavailable`)"),
  },
});

/** `POST /webhooks/github`: verify the signature on the raw body, store the delivery, enqueue it, answer. */
export const registerGithubWebhook = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const secrets = deps.config.github.webhookSecrets;
    if (secrets.length === 0) {
      throw new NotConfigured(
        "GitHub webhooks are not configured: set GITHUB_WEBHOOK_SECRET to the webhook's secret",
      );
    }
    // The raw bytes, verified before anything is parsed.
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const signature = c.req.header("x-hub-signature-256");
    if (!signature || !verifySignature(raw, signature, secrets)) {
      deps.metrics.webhookDeliveries.inc({ status: "rejected" });
      throw new InvalidSignature(
        signature
          ? "X-Hub-Signature-256 does not match the body under any configured secret"
          : "missing X-Hub-Signature-256 header",
        { field: "X-Hub-Signature-256" },
      );
    }
    const event = header(c.req.header("x-github-event"), "X-GitHub-Event", EVENT);
    const deliveryId = header(c.req.header("x-github-delivery"), "X-GitHub-Delivery", DELIVERY_ID);

    const payload = parsePayload(raw, c.req.header("content-type"));
    const received = await receiveDelivery(deps.memory, { id: deliveryId, event, payload });
    deps.metrics.webhookDeliveries.inc({ status: received.status });
    if (received.status === "accepted" || received.retry) await deps.github.deliveries.enqueue(deliveryId);
    const pong = event === "ping" ? { pong: true } : {};
    if (received.status === "duplicate")
      return c.json({ deliveryId, status: "duplicate" as const, ...pong }, 200);
    return c.json({ deliveryId, status: "accepted" as const, ...pong }, event === "ping" ? 200 : 202);
  });

/** A required GitHub header, or an `Invalid` naming it. */
function header(value: string | undefined, name: string, format: RegExp): string {
  if (!value) throw new Invalid(`missing ${name} header`, { field: name });
  if (!format.test(value)) throw new Invalid(`${name} is malformed`, { field: name });
  return value;
}
