import { type SQL, sql } from "drizzle-orm";

/**
 * What a tenant-scoped API key may open (`MEMSTREAM_API_KEYS` entries `token=<scope>`):
 * - `prefix:<p>` — every agent whose id starts with `<p>`. A raw prefix is not bounded:
 *   `tenant-a` also opens `tenant-ab-x`; end it with a delimiter (`tenant-a/`, `tenant-a:`) so it
 *   opens only that tenant's agents.
 * - `exact:<id>` — that one agent.
 * - `<p>` with neither form — `prefix:<p>`, as before the forms existed.
 */
export type AgentScope = { kind: "prefix" | "exact"; value: string };

/** Parses the part of a key entry after `=`. */
export function parseAgentScope(text: string): AgentScope {
  if (text.startsWith("exact:")) return { kind: "exact", value: text.slice(6) };
  if (text.startsWith("prefix:")) return { kind: "prefix", value: text.slice(7) };
  return { kind: "prefix", value: text };
}

/** Whether the scope opens `agentId`; no scope opens every agent. */
export const inAgentScope = (scope: AgentScope | null | undefined, agentId: string): boolean =>
  !scope || (scope.kind === "exact" ? agentId === scope.value : agentId.startsWith(scope.value));

/** The same test in SQL on an agent id expression; undefined without a scope. */
export const agentScopeSql = (scope: AgentScope | null | undefined, agentId: SQL): SQL | undefined =>
  !scope
    ? undefined
    : scope.kind === "exact"
      ? sql`${agentId} = ${scope.value}`
      : sql`starts_with(${agentId}, ${scope.value})`;
