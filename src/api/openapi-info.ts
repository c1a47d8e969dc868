/** The OpenAPI document's top level: info, servers, tags and the security that applies. */

/** API keys (`MEMSTREAM_API_KEYS`) as bearer tokens; whether they are needed depends on the server. */
export const BEARER_SCHEME = {
  type: "http" as const,
  scheme: "bearer",
  description:
    "A key of the server's `MEMSTREAM_API_KEYS`, as `Authorization: Bearer <key>`; a key scoped to an agent-id prefix sees only its agents.",
};

const AUTH = {
  keys: "Authentication: an API key as a bearer token on every operation except the GitHub webhook (signed instead).",
  none: "Authentication: none. This server has no API keys (`MEMSTREAM_API_KEYS` unset, the zero-config default), so every operation is open; such a server listens on loopback only unless `MEMSTREAM_ALLOW_NO_AUTH` is set. With keys configured, its document declares bearer authentication.",
};

/** One line per tag, in the order the docs page shows them. */
const TAGS = [
  { name: "memories", description: "Store, list, read, edit and delete an agent's memories." },
  {
    name: "retrieval",
    description:
      "Ask the stream what matters now: ranked by recency, importance and relevance, optionally as a prompt-ready text block within a token budget.",
  },
  {
    name: "agents",
    description:
      "Per-agent state: counts, settings (reflection threshold, retrieve defaults, retention), forgetting, retrying enrichment, erasing the stream.",
  },
  {
    name: "reflection",
    description: "Higher-level insights drawn from recent memories by an LLM, and the record of each run.",
  },
  {
    name: "lessons",
    description: "Outcomes of attempted tasks, and the lessons consolidated from similar ones.",
  },
  { name: "documents", description: "Markdown or text documents imported as one memory per section." },
  {
    name: "imports",
    description: "Backfill an agent's stream from a GitHub repository's history (a background job).",
  },
  {
    name: "webhooks",
    description: "GitHub webhook deliveries: receive (signed, no API key), list, retry.",
  },
  {
    name: "events",
    description:
      "Outgoing events: subscribe a URL to an agent's events (signed POSTs, retried with backoff), read the delivery log, redeliver.",
  },
];

/**
 * The document's top level. Security tells the truth about this server: bearer keys when it has
 * any; when it has none (zero-config), no requirement and no scheme, and the description says so. `servers` is relative, so the docs
 * page and any client reading the document call the server that served it.
 */
export function openApiInfo(keysRequired: boolean) {
  return {
    openapi: "3.1.0",
    info: {
      title: "memstream",
      version: "1",
      description: [
        "Long-term memory streams for LLM agents: per-agent memories ranked by recency, importance and relevance (Generative Agents), with reflections, outcomes and lessons, documents and GitHub ingestion.",
        "Every failure answers one error envelope `{error: {code, message, requestId, details}}`.",
        keysRequired ? AUTH.keys : AUTH.none,
      ].join(" "),
      license: { name: "MIT", identifier: "MIT" },
      contact: { name: "memstream maintainers (issues in the project's repository)" },
    },
    servers: [{ url: "/", description: "The server that serves this document" }],
    tags: TAGS,
    security: keysRequired ? [{ bearer: [] }] : [],
  };
}
