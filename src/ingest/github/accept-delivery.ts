import { createHash } from "node:crypto";
import { DomainError, Invalid, InvalidSignature, NotConfigured } from "../../lib/errors";
import type { IngestDeps } from "./deps";
import { parsePayload } from "./parse-payload";
import { receiveDelivery } from "./receive-delivery";
import { verifySignature } from "./signature";

// GitHub delivery ids are GUIDs and event names snake_case; anything else is refused before storing.
export const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,100}$/;
export const EVENT = /^[a-z][a-z0-9_]{0,63}$/;
/** The two content types a GitHub webhook can be set to. */
export const MEDIA_TYPES = ["application/json", "application/x-www-form-urlencoded"];

/** A webhook request as it arrived: the raw body and GitHub's headers (absent ones undefined). */
export type WebhookRequest = {
  raw: Uint8Array;
  signature: string | undefined;
  event: string | undefined;
  deliveryId: string | undefined;
  contentType: string | undefined;
};

export type AcceptedDelivery = { deliveryId: string; status: "accepted" | "duplicate"; pong: boolean };

/**
 * The one way a webhook delivery comes in: verified (the signature on the raw bytes, before
 * anything else is read), its headers checked, parsed, stored once by id, and announced
 * (`delivery.accepted`, which the job system makes a `github.deliver` job: src/jobs/event-jobs.ts)
 * — when new, or when a redelivery finds the stored one still with work to do (GitHub's
 * "Redeliver" doubles as a retry). The manual retry (retry-delivery.ts) and the sweep announce the
 * same event. Throws `NotConfigured` without secrets, `InvalidSignature`,
 * `Invalid` (naming the header or the body) and `unsupported_media_type`.
 */
export async function acceptDelivery(
  deps: Pick<IngestDeps, "db" | "clock" | "announce" | "webhookSecrets" | "metrics">,
  req: WebhookRequest,
): Promise<AcceptedDelivery> {
  if (deps.webhookSecrets.length === 0) {
    throw new NotConfigured(
      "GitHub webhooks are not configured: set GITHUB_WEBHOOK_SECRET to the webhook's secret",
    );
  }
  if (!req.signature || !verifySignature(req.raw, req.signature, deps.webhookSecrets)) {
    deps.metrics.webhookDeliveries.inc({ status: "rejected" });
    throw new InvalidSignature(
      req.signature
        ? "X-Hub-Signature-256 does not match the body under any configured secret"
        : "missing X-Hub-Signature-256 header",
      { field: "X-Hub-Signature-256" },
    );
  }
  const event = header(req.event, "X-GitHub-Event", EVENT);
  const deliveryId = header(req.deliveryId, "X-GitHub-Delivery", DELIVERY_ID);
  const contentType = req.contentType;
  if (contentType && !MEDIA_TYPES.some((t) => contentType.toLowerCase().startsWith(t))) {
    throw new DomainError("unsupported_media_type", `Content-Type ${contentType} is not one GitHub sends`, {
      field: "Content-Type",
      accepted: MEDIA_TYPES,
    });
  }
  const payload = parsePayload(req.raw, contentType);
  // The raw body's hash: the same signed body replayed under a new delivery id stores no second copy.
  const bodyHash = createHash("sha256").update(req.raw).digest("hex");
  const received = await receiveDelivery(deps, { id: deliveryId, event, payload, bodyHash });
  deps.metrics.webhookDeliveries.inc({ status: received.status });
  if (received.status === "accepted" || (received.status === "duplicate" && received.retry)) {
    await deps.announce([{ kind: "delivery.accepted", deliveryId }]);
  }
  // A replay answers as a duplicate: GitHub (or whoever replayed it) needs nothing more.
  const status = received.status === "accepted" ? "accepted" : "duplicate";
  return { deliveryId, status, pong: event === "ping" };
}

/** A required GitHub header, or an `Invalid` naming it. */
function header(value: string | undefined, name: string, format: RegExp): string {
  if (!value) throw new Invalid(`missing ${name} header`, { field: name });
  if (!format.test(value)) throw new Invalid(`${name} is malformed`, { field: name });
  return value;
}
