import { and, desc, eq } from "drizzle-orm";
import { type DeliveryStatus, githubDeliveries } from "../../db/schema";
import type { AgentScope } from "../../lib/agent-scope";
import type { MemoryDeps } from "../../memory/deps";
import { visibleAgents, visibleTo } from "./delivery-scope";

/** A delivery as the API lists it (never the payload). */
export type DeliverySummary = {
  id: string;
  event: string;
  action: string | null;
  status: DeliveryStatus;
  reason: string | null;
  agentIds: string[];
  observations: number;
  attempts: number;
  receivedAt: string;
  processedAt: string | null;
};

/**
 * Recent deliveries, newest first. With `scope` (a tenant-scoped API key) only deliveries routed
 * to at least one agent of the scope are listed, each with only those agents; deliveries not yet
 * routed (still `received`) or routed nowhere are visible to unscoped keys only.
 */
export async function listDeliveries(
  deps: Pick<MemoryDeps, "db">,
  opts: { limit: number; status?: DeliveryStatus; scope?: AgentScope | null },
): Promise<DeliverySummary[]> {
  const conds = [opts.status ? eq(githubDeliveries.status, opts.status) : undefined, visibleTo(opts.scope)];
  const rows = await deps.db
    .select({
      id: githubDeliveries.id,
      event: githubDeliveries.event,
      action: githubDeliveries.action,
      status: githubDeliveries.status,
      reason: githubDeliveries.reason,
      agentIds: githubDeliveries.agentIds,
      observations: githubDeliveries.observations,
      attempts: githubDeliveries.attempts,
      receivedAt: githubDeliveries.receivedAt,
      processedAt: githubDeliveries.processedAt,
    })
    .from(githubDeliveries)
    .where(and(...conds))
    .orderBy(desc(githubDeliveries.receivedAt), desc(githubDeliveries.id))
    .limit(opts.limit);
  return rows.map((r) => ({
    ...r,
    agentIds: visibleAgents(opts.scope, r.agentIds),
    receivedAt: r.receivedAt.toISOString(),
    processedAt: r.processedAt?.toISOString() ?? null,
  }));
}
