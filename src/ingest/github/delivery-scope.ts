import { type SQL, sql } from "drizzle-orm";
import { githubDeliveries } from "../../db/schema";

/**
 * Tenant scoping of deliveries: a key limited to `agentPrefix` sees only deliveries routed to at
 * least one agent inside it; deliveries not yet routed (`received`) or routed nowhere are visible
 * to unscoped keys only. Undefined for an unscoped key.
 */
export const visibleTo = (agentPrefix: string | null | undefined): SQL | undefined =>
  agentPrefix
    ? sql`EXISTS (SELECT 1 FROM unnest(${githubDeliveries.agentIds}) AS a WHERE starts_with(a, ${agentPrefix}))`
    : undefined;
