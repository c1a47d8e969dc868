import { count, eq } from "drizzle-orm";
import { eventSubscriptions } from "../db/schema";
import { Invalid } from "../lib/errors";
import { newId } from "../lib/ids";
import type { MemoryDeps } from "../memory/deps";
import { isPrivateAddress, literalHost } from "./address";
import { newSecret } from "./sign";
import {
  EVENT_TYPE_NAMES,
  type EventType,
  OUTGOING_LIMITS,
  type Subscription,
  toSubscription,
} from "./types";

export type NewSubscription = {
  url: string;
  /** Event types to send; absent = every type. */
  events?: EventType[];
  /** The signing secret; absent = a new random one. */
  secret?: string;
  description?: string;
};

/**
 * Subscribes a URL to the agent's events. The answer carries the secret, the only time it is
 * shown. The URL must be http(s) without credentials; with private addresses refused (the
 * default outside zero-config) an address literal in that range is refused here, and names are
 * checked at every delivery, against the address connected to.
 */
export async function createSubscription(
  deps: Pick<MemoryDeps, "db">,
  opts: { allowPrivate: boolean },
  agentId: string,
  input: NewSubscription,
): Promise<Subscription & { secret: string }> {
  checkUrl(input.url, opts.allowPrivate);
  const events = [...new Set(input.events ?? EVENT_TYPE_NAMES)];
  const secret = input.secret ?? newSecret();
  return deps.db.transaction(async (tx) => {
    const [held] = await tx
      .select({ n: count() })
      .from(eventSubscriptions)
      .where(eq(eventSubscriptions.agentId, agentId));
    if (Number(held?.n ?? 0) >= OUTGOING_LIMITS.subscriptionsPerAgent) {
      throw new Invalid(
        `agent ${agentId} has ${OUTGOING_LIMITS.subscriptionsPerAgent} subscriptions, the most it may have`,
        { field: "url", limit: OUTGOING_LIMITS.subscriptionsPerAgent },
      );
    }
    const [row] = await tx
      .insert(eventSubscriptions)
      .values({
        agentId,
        id: newId("sub"),
        url: input.url,
        secret,
        events,
        description: input.description ?? null,
      })
      .returning();
    if (!row) throw new Error("insert returned no row");
    return { ...toSubscription(row), secret };
  });
}

function checkUrl(text: string, allowPrivate: boolean): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Invalid("url is not an absolute URL", { field: "url" });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Invalid("url must be http or https", { field: "url" });
  }
  if (url.username || url.password) {
    throw new Invalid("url must not carry credentials (the signature authenticates the sender)", {
      field: "url",
    });
  }
  const literal = literalHost(url);
  const local = url.hostname === "localhost" || url.hostname.endsWith(".localhost");
  if (!allowPrivate && (local || (literal && isPrivateAddress(literal)))) {
    throw new Invalid(
      "url names a loopback, private or link-local address, which this server does not send to (MEMSTREAM_EVENTS_ALLOW_PRIVATE)",
      { field: "url" },
    );
  }
}
