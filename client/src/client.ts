import createClient, { type Client } from "openapi-fetch";
import { MemstreamError } from "./errors.js";
import type { components, paths } from "./generated/openapi.js";
import { type RetryOptions, retryingFetch } from "./retry.js";

type Schemas = components["schemas"];
export type Memory = Schemas["Memory"];
export type NewMemory = Schemas["NewMemory"];
export type ScoredMemory = Schemas["ScoredMemory"];
export type RetrieveRequest = Schemas["RetrieveRequest"];
export type RetrieveResult =
  paths["/v1/agents/{agentId}/retrieve"]["post"]["responses"][200]["content"]["application/json"];
export type ListQuery = NonNullable<paths["/v1/agents/{agentId}/memories"]["get"]["parameters"]["query"]>;
export type MemoryPage =
  paths["/v1/agents/{agentId}/memories"]["get"]["responses"][200]["content"]["application/json"];
export type AgentStats = Schemas["AgentStats"];
export type NewOutcome = Schemas["NewOutcome"];
export type Outcome = Schemas["Outcome"];
export type Feedback = Schemas["Feedback"];
export type FeedbackRecorded = Schemas["FeedbackRecorded"];
export type ReflectionResult =
  paths["/v1/agents/{agentId}/reflect"]["post"]["responses"][200]["content"]["application/json"];
export type EventSubscription = Schemas["EventSubscription"];
export type CreatedEventSubscription = Schemas["CreatedEventSubscription"];
export type NewEventSubscription = Schemas["NewEventSubscription"];
export type EventDelivery = Schemas["EventDelivery"];
export type DeliveryQuery = NonNullable<
  paths["/v1/agents/{agentId}/subscriptions/{subscriptionId}/deliveries"]["get"]["parameters"]["query"]
>;

export type MemstreamClientOptions = {
  /** Where the server listens, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** A key of the server's MEMSTREAM_API_KEYS (sent as `Authorization: Bearer`). */
  apiKey?: string;
  /** Backoff on 429/503 and refused connections; `{ retries: 0 }` turns it off. */
  retry?: RetryOptions;
  /** Another fetch (tests, proxies); default the global one. */
  fetch?: typeof fetch;
};

export type MemstreamClient = ReturnType<typeof createMemstreamClient>;

/**
 * A typed client for memstream's HTTP API. The verbs below cover an agent's loop; `api` is the
 * full typed client (openapi-fetch) for every other operation. Failures throw `MemstreamError`.
 */
export function createMemstreamClient(options: MemstreamClientOptions) {
  const api: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options.retry),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
  });
  const agent = (agentId: string) => ({ path: { agentId } });

  return {
    api,
    /** Stores one memory; importance and embedding are filled in by the server later. */
    remember: async (agentId: string, memory: NewMemory): Promise<Memory> =>
      (await unwrap(
        api.POST("/v1/agents/{agentId}/memories", { params: agent(agentId), body: memory }),
      )) as Memory,
    /** Stores up to 1,000 memories in one call, all or nothing. */
    rememberMany: async (agentId: string, memories: NewMemory[]): Promise<Memory[]> => {
      const body = await unwrap(
        api.POST("/v1/agents/{agentId}/memories", { params: agent(agentId), body: { memories } }),
      );
      return (body as { memories: Memory[] }).memories;
    },
    /** Ranks memories by recency, importance and relevance; `format: "text"` adds a prompt-ready block. */
    retrieve: (agentId: string, body: RetrieveRequest): Promise<RetrieveResult> =>
      unwrap(api.POST("/v1/agents/{agentId}/retrieve", { params: agent(agentId), body })),
    /** One page of memories, newest first; pass `nextCursor` back as `cursor` for the next. */
    list: (agentId: string, query: ListQuery = {}): Promise<MemoryPage> =>
      unwrap(api.GET("/v1/agents/{agentId}/memories", { params: { ...agent(agentId), query } })),
    get: (agentId: string, id: string): Promise<Memory> =>
      unwrap(api.GET("/v1/agents/{agentId}/memories/{id}", { params: { path: { agentId, id } } })),
    /** Deletes one memory for good. */
    forget: async (agentId: string, id: string): Promise<void> => {
      await unwrap(api.DELETE("/v1/agents/{agentId}/memories/{id}", { params: { path: { agentId, id } } }));
    },
    stats: (agentId: string): Promise<AgentStats> =>
      unwrap(api.GET("/v1/agents/{agentId}/stats", { params: agent(agentId) })),
    /** Records how a task went; similar outcomes of one task type become lessons that retrieve returns. */
    recordOutcome: (agentId: string, outcome: NewOutcome): Promise<Outcome> =>
      unwrap(api.POST("/v1/agents/{agentId}/outcomes", { params: agent(agentId), body: outcome })),
    /**
     * Says which memories of a retrieve (its `retrievalId`) the agent used; the rest count as
     * unused unless `unused` lists them. With learning on, it fits the agent's ranking weights.
     */
    feedback: (agentId: string, body: Feedback): Promise<FeedbackRecorded> =>
      unwrap(api.POST("/v1/agents/{agentId}/feedback", { params: agent(agentId), body })),
    /** Reflects now (needs an LLM on the server). */
    reflect: (agentId: string): Promise<ReflectionResult> =>
      unwrap(api.POST("/v1/agents/{agentId}/reflect", { params: agent(agentId) })),
    /** Outgoing events (docs/events.md): subscribe a URL; the answer's `secret` is shown only here. */
    subscribe: (agentId: string, body: NewEventSubscription): Promise<CreatedEventSubscription> =>
      unwrap(api.POST("/v1/agents/{agentId}/subscriptions", { params: agent(agentId), body })),
    subscriptions: async (agentId: string): Promise<EventSubscription[]> =>
      (await unwrap(api.GET("/v1/agents/{agentId}/subscriptions", { params: agent(agentId) }))).subscriptions,
    unsubscribe: async (agentId: string, subscriptionId: string): Promise<void> => {
      await unwrap(
        api.DELETE("/v1/agents/{agentId}/subscriptions/{subscriptionId}", {
          params: { path: { agentId, subscriptionId } },
        }),
      );
    },
    /** A subscription's delivery log, newest first. */
    deliveries: async (
      agentId: string,
      subscriptionId: string,
      query: DeliveryQuery = {},
    ): Promise<EventDelivery[]> =>
      (
        await unwrap(
          api.GET("/v1/agents/{agentId}/subscriptions/{subscriptionId}/deliveries", {
            params: { path: { agentId, subscriptionId }, query },
          }),
        )
      ).deliveries,
    /** Sends a logged delivery's event again, as a new delivery. */
    redeliver: (agentId: string, subscriptionId: string, deliveryId: string): Promise<EventDelivery> =>
      unwrap(
        api.POST("/v1/agents/{agentId}/subscriptions/{subscriptionId}/deliveries/{deliveryId}/redeliver", {
          params: { path: { agentId, subscriptionId, deliveryId } },
        }),
      ),
  };
}

/** The body of a successful answer, or a `MemstreamError` carrying the server's code and request id. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch (err) {
    throw Object.assign(
      new MemstreamError(0, "network_error", `cannot reach memstream: ${(err as Error).message}`, null),
      { cause: err },
    );
  }
  if (!result.response.ok) throw MemstreamError.from(result.response, result.error);
  return result.data as T;
}
