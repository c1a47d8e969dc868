import {
  BaseStore,
  type GetOperation,
  getTextAtPath,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
  validateNamespace,
} from "@langchain/langgraph-checkpoint";
import type { Memory, MemstreamClient } from "@memstream/client";
import { passes, serverSide } from "./filter.js";
import { agentIdOf, matches, registryAgentOf, under } from "./namespaces.js";

export type MemstreamStoreOptions = {
  /** A `createMemstreamClient(...)` from `@memstream/client`. */
  client: MemstreamClient;
  /** Prefix of the agent ids namespaces map to (default `langgraph:`); a scoped API key's prefix fits here. */
  prefix?: string;
  /**
   * Which fields of a value are the memory's text (what memstream embeds and ranks); BaseStore's
   * path syntax. Default `["$"]`: the whole value as JSON, as LangGraph's InMemoryStore embeds it.
   */
  index?: { fields?: string[] };
};

/** The metadata of an item's memory: the store's own fields beside the caller's value. */
type ItemMetadata = { store: "langgraph"; key: string; value: Record<string, unknown>; updatedAt: string };

const PAGE = 200;
/** The most memories one retrieve ranks and returns (the server's `k` limit). */
const MAX_K = 200;
/** The server's description limit. */
const MAX_TEXT = 8_000;

/**
 * LangGraph's long-term memory store (`BaseStore`) on memstream. Each namespace is a memstream
 * agent (`langgraph:memories/user-1`), each item one memory of it: its text is the value's indexed
 * fields (embedded and ranked by memstream), its metadata holds the key and the value. `search`
 * with a query is memstream's retrieve, ranked by relevance alone (LangGraph's semantics: a
 * similarity score); without one it lists items as InMemoryStore does: namespaces in the order of
 * their first put, each namespace's items oldest first. The namespaces a store has written
 * are kept in a registry agent, so `listNamespaces` and searches over a namespace prefix find
 * them. Limits are memstream's: a value is at most 16 KB of JSON, a text 8,000 characters.
 */
export class MemstreamStore extends BaseStore {
  private readonly client: MemstreamClient;
  private readonly prefix: string;
  private readonly fields: string[];
  /** Namespaces known to be in the registry (by agent id), so each is registered once. */
  private readonly registered = new Set<string>();

  constructor(options: MemstreamStoreOptions) {
    super();
    this.client = options.client;
    this.prefix = options.prefix ?? "langgraph:";
    this.fields = options.index?.fields ?? ["$"];
  }

  /**
   * Runs `operations` as LangGraph's InMemoryStore does: every namespace is validated first (one
   * invalid namespace fails the batch before anything is read or written); then every read (get,
   * search, listNamespaces) answers from the state before the batch; then the puts run in order,
   * one per key (the last put of a key wins, at the place of its first), each answering `null`.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    for (const op of operations) {
      if ("namespace" in op) validateNamespace(op.namespace);
      else if ("namespacePrefix" in op && op.namespacePrefix.length > 0)
        validateNamespace(op.namespacePrefix);
    }
    const results: unknown[] = operations.map(() => null);
    const puts = new Map<string, PutOperation>();
    for (const op of operations) {
      if (!("namespacePrefix" in op) && "value" in op) puts.set(JSON.stringify([op.namespace, op.key]), op);
    }
    // Reads do not change the store, so they may run side by side.
    await Promise.all(
      operations.map(async (op, i) => {
        if ("namespacePrefix" in op) results[i] = await this.searchOp(op);
        else if ("value" in op) return;
        else if ("key" in op) results[i] = await this.getOp(op);
        else results[i] = await this.listNamespacesOp(op);
      }),
    );
    for (const op of puts.values()) await this.putOp(op);
    return results as OperationResults<Op>;
  }

  private agent(namespace: string[]) {
    return agentIdOf(this.prefix, namespace);
  }

  /** The memory holding `key` in `namespace`, or null. */
  private async find(namespace: string[], key: string): Promise<Memory | null> {
    const page = await this.client.list(this.agent(namespace), {
      metadata: JSON.stringify({ store: "langgraph", key }),
      limit: 1,
    });
    return page.memories[0] ?? null;
  }

  private async getOp(op: GetOperation): Promise<Item | null> {
    const memory = await this.find(op.namespace, op.key);
    return memory ? toItem(memory, op.namespace) : null;
  }

  private async putOp(op: PutOperation): Promise<void> {
    const agentId = this.agent(op.namespace);
    const existing = await this.find(op.namespace, op.key);
    if (op.value === null) {
      if (existing) await this.client.forget(agentId, existing.id);
      return;
    }
    const metadata: ItemMetadata = {
      store: "langgraph",
      key: op.key,
      value: op.value,
      updatedAt: new Date().toISOString(),
    };
    const description = this.textOf(op.key, op.value, op.index);
    if (existing) {
      const res = await this.client.api.PATCH("/v1/agents/{agentId}/memories/{id}", {
        params: { path: { agentId, id: existing.id } },
        body: { description, metadata },
      });
      if (!res.response.ok)
        throw new Error(`memstream refused the update of ${op.key}: ${JSON.stringify(res.error)}`);
    } else {
      await this.register(op.namespace);
      await this.client.remember(agentId, { description, metadata });
    }
  }

  /** The memory's text: the indexed fields of the value (or the key alone when not indexed). */
  private textOf(key: string, value: Record<string, unknown>, index: false | string[] | undefined): string {
    if (index === false) return key;
    const paths = index ?? this.fields;
    // "$" is the whole value as InMemoryStore embeds it (indented JSON), so both rank alike.
    const texts = paths.flatMap((p) =>
      p === "$" ? [JSON.stringify(value, null, 2)] : getTextAtPath(value, p),
    );
    const text = texts.join("\n").trim() || key;
    return text.length <= MAX_TEXT ? text : text.slice(0, MAX_TEXT);
  }

  private async register(namespace: string[]) {
    const agentId = this.agent(namespace);
    if (this.registered.has(agentId)) return;
    const registry = registryAgentOf(this.prefix);
    const known = await this.client.list(registry, { metadata: JSON.stringify({ agentId }), limit: 1 });
    if (known.memories.length === 0) {
      await this.client.remember(registry, {
        description: `LangGraph namespace ${namespace.join(" / ")}`,
        metadata: { agentId, namespace },
      });
    }
    this.registered.add(agentId);
  }

  /**
   * Every namespace the registry holds, oldest registration first: the order InMemoryStore keeps
   * its namespaces in (the order of their first put), which a search without a query follows.
   */
  private async namespaces(): Promise<string[][]> {
    const rows: Memory[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.list(registryAgentOf(this.prefix), { limit: PAGE, cursor });
      rows.push(...page.memories);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    // The list is newest first; two stores racing may register a namespace twice: the oldest counts.
    const out = new Map<string, string[]>();
    for (const m of rows.reverse()) {
      const ns = m.metadata.namespace as string[];
      const id = JSON.stringify(ns);
      if (!out.has(id)) out.set(id, ns);
    }
    return [...out.values()];
  }

  private async listNamespacesOp(op: ListNamespacesOperation): Promise<string[][]> {
    let namespaces = (await this.namespaces()).sort((a, b) => a.join(":").localeCompare(b.join(":")));
    const conditions = op.matchConditions ?? [];
    namespaces = namespaces.filter((ns) => conditions.every((c) => matches(c, ns)));
    if (op.maxDepth !== undefined) {
      const cut = new Map(namespaces.map((ns) => ns.slice(0, op.maxDepth)).map((ns) => [ns.join(":"), ns]));
      namespaces = [...cut.values()].sort((a, b) => a.join(":").localeCompare(b.join(":")));
    }
    const offset = op.offset ?? 0;
    return namespaces.slice(offset, offset + (op.limit ?? namespaces.length));
  }

  private async searchOp(op: SearchOperation): Promise<SearchItem[]> {
    const offset = op.offset ?? 0;
    const limit = op.limit ?? 10;
    const namespaces = (await this.namespaces()).filter((ns) => under(op.namespacePrefix, ns));
    const pushed = serverSide(op.filter);
    const metadata = { store: "langgraph", ...wrapValue(pushed) };
    // Conditions the server cannot apply are checked here, after ranking: rank as many as allowed.
    const k =
      Object.keys(op.filter ?? {}).length > Object.keys(pushed).length
        ? MAX_K
        : Math.min(MAX_K, offset + limit);
    const found: SearchItem[] = [];
    for (const ns of namespaces) {
      const agentId = this.agent(ns);
      if (op.query) {
        // Relevance alone, by vector: LangGraph's score is a similarity, not recency or importance.
        const result = await this.client.retrieve(agentId, {
          query: op.query,
          k,
          weights: { recency: 0, importance: 0, relevance: 1 },
          relevance: "vector",
          filters: { metadata },
        });
        for (const m of result.memories) {
          const item = toItem(m, ns);
          // The cosine itself (LangGraph's score), not relevance scaled over the namespace.
          if (passes(item.value, op.filter)) found.push({ ...item, score: m.scores.similarity ?? undefined });
        }
      } else {
        // Oldest first, as InMemoryStore keeps a namespace's keys (an update keeps its place, a
        // delete and put again goes last): the list is newest first, so the namespace is read whole.
        const rows: Memory[] = [];
        let cursor: string | undefined;
        do {
          const page = await this.client.list(agentId, {
            metadata: JSON.stringify(metadata),
            limit: PAGE,
            cursor,
          });
          rows.push(...page.memories);
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        for (const m of rows.reverse()) {
          const item = toItem(m, ns);
          if (passes(item.value, op.filter)) found.push(item);
        }
        if (found.length >= offset + limit) break;
      }
    }
    if (op.query) found.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    return found.slice(offset, offset + limit);
  }
}

/** A filter on the value's fields as a filter on the memory's metadata. */
const wrapValue = (filter: Record<string, unknown>) =>
  Object.keys(filter).length > 0 ? { value: filter } : {};

function toItem(memory: Memory, namespace: string[]): Item {
  const meta = memory.metadata as ItemMetadata;
  return {
    namespace,
    key: meta.key,
    value: meta.value,
    createdAt: new Date(memory.createdAt),
    updatedAt: new Date(meta.updatedAt ?? memory.createdAt),
  };
}
