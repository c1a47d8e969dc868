import { createHash } from "node:crypto";
import { createRoute, z } from "@hono/zod-openapi";
import { parsePayload } from "../../../ingest/github/parse-payload";
import { receiveDelivery } from "../../../ingest/github/receive-delivery";
import { verifySignature } from "../../../ingest/github/signature";
import { DomainError, Invalid, InvalidSignature, NotConfigured } from "../../../lib/errors";
import type { App, AppDeps } from "../../deps";
import { DELIVERY_EXAMPLE } from "../../examples";
import { errorResponse as error, json } from "../../schemas";

/** GitHub caps webhook payloads at 25 MB; anything larger is not GitHub. */
export const GITHUB_MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;
export const GITHUB_WEBHOOK_PATH = "/webhooks/github";

// GitHub delivery ids are GUIDs and event names snake_case; anything else is refused before storing.
export const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const EVENT = /^[a-z][a-z0-9_]{0,63}$/;
/** The two content types a GitHub webhook can be set to. */
const MEDIA_TYPES = ["application/json", "application/x-www-form-urlencoded"];

const Accepted = z
  .object({
    deliveryId: z.string(),
    status: z.enum(["accepted", "duplicate"]),
    pong: z.boolean().optional(),
  })
  .openapi("GithubDeliveryAccepted");

/** What GitHub sends with every delivery; checked by the handler in this order, after the signature. */
const Headers = z.object({
  "X-Hub-Signature-256": z.string().openapi({
    description:
      "`sha256=` and the hex HMAC-SHA256 of the raw body under the webhook's secret (one of `GITHUB_WEBHOOK_SECRET`)",
    example: "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
  }),
  "X-GitHub-Event": z.string().regex(EVENT).openapi({
    description: "The event name, e.g. `issues`, `push`, `pull_request`, `ping`",
    example: "issues",
  }),
  "X-GitHub-Delivery": z.string().regex(DELIVERY_ID).openapi({
    description: "The delivery's GUID: a redelivery carries the same one, so it is stored once",
    example: DELIVERY_EXAMPLE.id,
  }),
  "X-GitHub-Hook-ID": z.string().optional().openapi({ description: "The webhook's id (not used)" }),
  "X-GitHub-Hook-Installation-Target-Type": z
    .string()
    .optional()
    .openapi({ description: "repository, organization, integration… (not used)" }),
  "X-GitHub-Hook-Installation-Target-ID": z.string().optional().openapi({ description: "Its id (not used)" }),
});

const Payload = z.record(z.string(), z.unknown()).openapi("GithubEventPayload", {
  description:
    "The event's payload exactly as GitHub sends it (docs.github.com: webhook events and payloads); events memstream does not describe are stored and ignored with a reason.",
  example: {
    action: "opened",
    issue: { number: 7, title: "Checkout fails on Safari", user: { login: "octocat" } },
    repository: { full_name: "acme/api" },
    sender: { login: "octocat" },
  },
});

const route = createRoute({
  method: "post",
  path: GITHUB_WEBHOOK_PATH,
  operationId: "receiveGithubWebhook",
  tags: ["webhooks"],
  summary: "GitHub webhook receiver",
  description:
    "Point a repository, organization or GitHub App webhook here. Authenticated by `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with a secret from `GITHUB_WEBHOOK_SECRET`), not by an API key. Needs `X-GitHub-Event` and `X-GitHub-Delivery`. Stores the delivery and answers at once; processing is asynchronous (see `GET /v1/webhooks/github/deliveries`).",
  security: [],
  request: {
    headers: Headers,
    body: {
      required: true,
      content: {
        "application/json": { schema: Payload },
        "application/x-www-form-urlencoded": {
          schema: z.object({
            payload: z.string().openapi({ description: "The same JSON payload, as one form field" }),
          }),
        },
      },
    },
  },
  responses: {
    200: json(
      Accepted,
      "A redelivery of a known delivery id, or a body already received under another delivery id (recorded as an ignored replay; nothing new is stored), or a ping",
      {
        deliveryId: DELIVERY_EXAMPLE.id,
        status: "duplicate",
      },
    ),
    202: json(Accepted, "Stored; processing is queued", {
      deliveryId: DELIVERY_EXAMPLE.id,
      status: "accepted",
    }),
    400: error("Missing `X-GitHub-Event`/`X-GitHub-Delivery`, or a body that is not JSON"),
    401: error("Missing or invalid `X-Hub-Signature-256`"),
    413: error(`Body over GitHub's ${GITHUB_MAX_PAYLOAD_BYTES}-byte payload limit`),
    415: error(
      "A signed body whose Content-Type is neither JSON nor form-encoded (`unsupported_media_type`)",
    ),
    500: error("Unexpected failure, logged with the request id (`internal`)"),
    501: error("`GITHUB_WEBHOOK_SECRET` is not configured: nothing is accepted"),
    503: error("The database is unreachable; GitHub redelivers later (`unavailable`)"),
  },
});

/** `POST /webhooks/github`: verify the signature on the raw body, store the delivery, enqueue it, answer. */
export const registerGithubWebhook = (app: App, deps: AppDeps) => {
  // Documented with its headers and body, but not validated by the framework: the signature is
  // checked on the raw bytes first (401 before anything else), then the headers, then the JSON.
  app.openAPIRegistry.registerPath(route);
  app.openapi({ ...route, request: undefined, hide: true }, async (c) => {
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

    const contentType = c.req.header("content-type");
    if (contentType && !MEDIA_TYPES.some((t) => contentType.toLowerCase().startsWith(t))) {
      throw new DomainError("unsupported_media_type", `Content-Type ${contentType} is not one GitHub sends`, {
        field: "Content-Type",
        accepted: MEDIA_TYPES,
      });
    }
    const payload = parsePayload(raw, contentType);
    const bodyHash = createHash("sha256").update(raw).digest("hex");
    const received = await receiveDelivery(deps.memory, { id: deliveryId, event, payload, bodyHash });
    deps.metrics.webhookDeliveries.inc({ status: received.status });
    if (received.status === "accepted" || (received.status === "duplicate" && received.retry)) {
      await deps.github.deliveries.enqueue(deliveryId);
    }
    const pong = event === "ping" ? { pong: true } : {};
    if (received.status !== "accepted")
      return c.json({ deliveryId, status: "duplicate" as const, ...pong }, 200);
    return c.json({ deliveryId, status: "accepted" as const, ...pong }, event === "ping" ? 200 : 202);
  });
};

/** A required GitHub header, or an `Invalid` naming it. */
function header(value: string | undefined, name: string, format: RegExp): string {
  if (!value) throw new Invalid(`missing ${name} header`, { field: name });
  if (!format.test(value)) throw new Invalid(`${name} is malformed`, { field: name });
  return value;
}
