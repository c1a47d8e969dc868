/**
 * Which agents' memory streams a GitHub event goes to.
 *
 * Config (`GITHUB_ROUTES`): semicolon-separated rules `<kind>:<key>=<agent>[,<agent>...]`, e.g.
 *   `repo:acme/api=agent-a,agent-b; org:acme=github:acme; installation:12345=agent-c`
 * - `repo:<owner>/<name>` matches `repository.full_name`;
 * - `org:<login>` matches the repository owner or `organization.login`;
 * - `installation:<id>` matches `installation.id` (GitHub App installations).
 * Repository and organization names are compared case-insensitively, as GitHub does.
 * An event goes to every agent of every matching rule, deduplicated, in rule order. With no
 * matching rule it goes to `github:<owner>/<repo>`, or `github:<org>` when it has no repository,
 * or nowhere when it has neither.
 */

/** Agent ids accepted by the memory API. */
export const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$/;

export type RouteRule = { kind: "repo" | "org" | "installation"; key: string; agents: string[] };

const KEY_FORMATS: Record<RouteRule["kind"], RegExp> = {
  repo: /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/,
  org: /^[A-Za-z0-9_.-]+$/,
  installation: /^[0-9]+$/,
};

function isKind(kind: string): kind is RouteRule["kind"] {
  return Object.hasOwn(KEY_FORMATS, kind);
}

function parseRule(text: string): RouteRule {
  const eq = text.indexOf("=");
  const colon = text.indexOf(":");
  if (eq < 0 || colon < 0 || colon > eq) {
    throw new Error(
      `GitHub route "${text}" must look like <repo|org|installation>:<key>=<agent>[,<agent>...]`,
    );
  }
  const kind = text.slice(0, colon).trim();
  const key = text.slice(colon + 1, eq).trim();
  if (!isKind(kind))
    throw new Error(`GitHub route "${text}": unknown kind "${kind}" (use repo, org or installation)`);
  if (!KEY_FORMATS[kind].test(key))
    throw new Error(`GitHub route "${text}": "${key}" is not a valid ${kind}`);
  const agents = text
    .slice(eq + 1)
    .split(",")
    .map((a) => a.trim());
  const bad = agents.find((a) => !AGENT_ID.test(a));
  if (bad !== undefined) throw new Error(`GitHub route "${text}": "${bad}" is not a valid agent id`);
  return { kind, key: kind === "installation" ? key : key.toLowerCase(), agents };
}

/** Parses the routing config; empty or missing means "default routing only". Throws on a malformed rule. */
export function parseRoutes(spec: string | undefined): RouteRule[] {
  if (!spec) return [];
  return spec
    .split(";")
    .map((rule) => rule.trim())
    .filter((rule) => rule !== "")
    .map(parseRule);
}

type RoutablePayload = {
  repository?: { full_name?: string; owner?: { login?: string } | null } | null;
  organization?: { login?: string } | null;
  installation?: { id?: number } | null;
};

/** Agents whose streams receive this event: every matching rule's agents, else the default agent. */
export function routeAgents(rules: RouteRule[], payload: unknown): string[] {
  const p = (typeof payload === "object" && payload !== null ? payload : {}) as RoutablePayload;
  const repo = p.repository?.full_name;
  const orgs = [p.repository?.owner?.login, p.organization?.login]
    .filter((o): o is string => typeof o === "string")
    .map((o) => o.toLowerCase());
  const installation = p.installation?.id;

  const agents = new Set<string>();
  for (const rule of rules) {
    const matches =
      (rule.kind === "repo" && repo?.toLowerCase() === rule.key) ||
      (rule.kind === "org" && orgs.includes(rule.key)) ||
      (rule.kind === "installation" && installation !== undefined && String(installation) === rule.key);
    if (matches) for (const agent of rule.agents) agents.add(agent);
  }
  if (agents.size > 0) return [...agents];

  const fallback = repo ? `github:${repo}` : p.organization?.login ? `github:${p.organization.login}` : null;
  return fallback && AGENT_ID.test(fallback) ? [fallback] : [];
}
