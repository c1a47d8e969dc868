import { type SQL, sql } from "drizzle-orm";
import { githubDeliveries } from "../../db/schema";
import { type AgentScope, agentScopeSql, inAgentScope } from "../../lib/agent-scope";

/**
 * Tenant scoping of deliveries: a scoped key sees only deliveries routed to at least one agent of
 * its scope; deliveries not yet routed (`received`) or routed nowhere are visible to unscoped keys
 * only. Undefined for an unscoped key.
 */
export const visibleTo = (scope: AgentScope | null | undefined): SQL | undefined => {
  const inScope = agentScopeSql(scope, sql`a`);
  return inScope && sql`EXISTS (SELECT 1 FROM unnest(${githubDeliveries.agentIds}) AS a WHERE ${inScope})`;
};

/**
 * The agents of a delivery a scoped key may see: its own. A repository routed to several tenants
 * must not tell one of them the others' agent ids (a scoped key cannot learn another tenant's
 * agent exists).
 */
export const visibleAgents = (scope: AgentScope | null | undefined, agentIds: string[]): string[] =>
  agentIds.filter((id) => inAgentScope(scope, id));
