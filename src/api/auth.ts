import { timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { ApiKey } from "../config";
import { inAgentScope } from "../lib/agent-scope";
import { AGENT_ID_PATTERN } from "../memory/limits";
import type { AppEnv } from "./env";
import { errorResponse } from "./errors";

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** An open key (every agent) used when no keys are configured. */
const OPEN_KEY: ApiKey = { token: "", scope: null };

/**
 * The key a presented token stands for: the open key when no keys are configured, undefined
 * for a missing or unknown token. Compared in constant time.
 */
export function findApiKey(keys: ApiKey[], token: string | undefined): ApiKey | undefined {
  if (keys.length === 0) return OPEN_KEY;
  return token ? keys.find((k) => sameToken(k.token, token)) : undefined;
}

/** The credentials of `Authorization: <scheme> <credentials>`; the scheme in any case (RFC 7235 §2.1). */
function credentialsOf(header: string, scheme: "bearer" | "basic"): string | undefined {
  const m = /^(\S+)[ \t]+(.*)$/s.exec(header.trim());
  return m && (m[1] as string).toLowerCase() === scheme ? (m[2] as string).trim() : undefined;
}

/** Bearer authentication for `/v1` and `/mcp`; with no keys configured every request passes. */
export function requireApiKey(keys: ApiKey[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = findApiKey(keys, credentialsOf(c.req.header("authorization") ?? "", "bearer"));
    if (!key) {
      return errorResponse(c, "unauthorized", "missing or unknown API key: send Authorization: Bearer <key>");
    }
    c.set("apiKey", key);
    return next();
  };
}

/** Why a key may not touch an agent: a malformed id (400) or one outside the key's prefix (404). */
export type AgentAccessDenied = { code: "invalid_request" | "not_found"; message: string };

/**
 * The one place agent access is decided: the agent id must be well formed and inside the
 * key's scope (tenant scoping: an exact id or a prefix, src/lib/agent-scope.ts). `/v1`, `/mcp` and `/ui` all ask here.
 */
export function checkAgentAccess(agentId: string, key: ApiKey | undefined): AgentAccessDenied | null {
  if (!AGENT_ID_PATTERN.test(agentId)) {
    return {
      code: "invalid_request",
      message:
        "agentId must be 1-200 characters of letters, digits and ._:@/- starting with a letter or digit (URL-encode / as %2F)",
    };
  }
  // not_found, not forbidden: a scoped key cannot even learn whether another tenant's agent exists.
  if (!inAgentScope(key?.scope, agentId)) {
    return { code: "not_found", message: `agent ${agentId} not found` };
  }
  return null;
}

/** Every `/v1/agents/{agentId}` route passes through here. */
export function authorizeAgent(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const denied = checkAgentAccess(c.req.param("agentId") ?? "", c.get("apiKey"));
    if (denied) return errorResponse(c, denied.code, denied.message, { field: "agentId" });
    return next();
  };
}

/** The token of `Authorization: Bearer <t>` or the password of `Basic <user:t>` (what browsers and Prometheus send). */
function presentedToken(header: string): string {
  const bearer = credentialsOf(header, "bearer");
  if (bearer !== undefined) return bearer;
  const basic = credentialsOf(header, "basic");
  if (basic !== undefined) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    return decoded.slice(decoded.indexOf(":") + 1);
  }
  return "";
}

/**
 * Operator endpoints (/metrics, /admin/queues): an admin key, as a bearer token or a Basic-auth
 * password. Agent API keys never open them — a tenant must not see every tenant's queue. With no
 * admin keys they are open only in a setup without API keys too (loopback dev, start-up refuses
 * otherwise), and closed as soon as API keys exist.
 */
export function requireAdminKey(adminKeys: string[], apiKeys: ApiKey[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (adminKeys.length === 0 && apiKeys.length === 0) return next();
    const token = presentedToken(c.req.header("authorization") ?? "");
    if (token && adminKeys.some((k) => sameToken(k, token))) return next();
    // The challenge makes a browser ask for the key (any user name, the key as password).
    c.header("www-authenticate", 'Basic realm="memstream admin", charset="UTF-8"');
    return errorResponse(
      c,
      "unauthorized",
      adminKeys.length === 0
        ? "operator endpoints are closed: set MEMSTREAM_ADMIN_KEYS"
        : "missing or unknown admin key: send Authorization: Bearer <admin key>",
    );
  };
}
