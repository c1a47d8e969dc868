import { createRoute, z } from "@hono/zod-openapi";
import { acceptDelivery, DELIVERY_ID, EVENT } from "../../../ingest/github/accept-delivery";
import type { App, AppDeps } from "../../deps";
import { DELIVERY_EXAMPLE } from "../../examples";
import { errorResponse as error, json } from "../../schemas";

/** GitHub caps webhook payloads at 25 MB; anything larger is not GitHub. */
export const GITHUB_MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;
export const GITHUB_WEBHOOK_PATH = "/webhooks/github";

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

/**
 * `POST /webhooks/github`: hands the raw body and GitHub's headers to `acceptDelivery` (verify,
 * parse, store, enqueue) and answers: 202 for a new delivery, 200 for a redelivery or a ping.
 */
export const registerGithubWebhook = (app: App, deps: AppDeps) => {
  // Documented with its headers and body, but not validated by the framework: the signature is
  // checked on the raw bytes first (401 before anything else), then the headers, then the JSON.
  app.openAPIRegistry.registerPath(route);
  app.openapi({ ...route, request: undefined, hide: true }, async (c) => {
    const { deliveryId, status, pong } = await acceptDelivery(deps, {
      raw: new Uint8Array(await c.req.arrayBuffer()),
      signature: c.req.header("x-hub-signature-256"),
      event: c.req.header("x-github-event"),
      deliveryId: c.req.header("x-github-delivery"),
      contentType: c.req.header("content-type"),
    });
    const body = { deliveryId, status, ...(pong ? { pong: true } : {}) };
    return c.json(body, status === "duplicate" || pong ? 200 : 202);
  });
};
