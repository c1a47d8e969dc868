import { and, eq, inArray, sql } from "drizzle-orm";
import { githubEventKeys } from "../../db/schema";
import { createMemories } from "../../memory/create-memories";
import type { MemoryDeps } from "../../memory/deps";
import { erasedSince } from "../../memory/erasure/guard";
import { describeEvent } from "./describe/index";
import { commitKey, eventKeys } from "./event-keys";

/** A GitHub event as the describers take it: the webhook event name and a webhook-shaped payload. */
export type GithubEvent = { name: string; payload: unknown };

export type StoreOutcome =
  | { status: "stored"; observations: number }
  /** The stream already has it (an earlier import or delivery). */
  | { status: "duplicate" }
  /** The agent was erased after the delivery or import arrived (its horizon): nothing is written. */
  | { status: "erased" }
  | { status: "ignored"; reason: string };

/**
 * Stores what one GitHub event becomes in one agent's stream, unless the stream already has it:
 * the webhook path and the repository import both come through here, with the same describers,
 * noise rules and event keys. Must run inside a transaction (`memory.db` is it): the agent's
 * GitHub lock is held to the commit, so the two paths storing one event at once store it once.
 * A push whose commits are partly known is described with the unknown ones only. `horizon` is
 * the source's erase horizon: an agent erased after the source arrived gets nothing (ADR 0027).
 */
export async function storeEvent(
  memory: MemoryDeps,
  agentId: string,
  event: GithubEvent,
  opts: { fallbackTime: string; metadata: Record<string, unknown>; horizon: number },
): Promise<StoreOutcome> {
  if (await erasedSince(memory.db, agentId, { horizon: opts.horizon })) return { status: "erased" };
  const keys = eventKeys(event.name, event.payload);
  const known = await knownKeys(memory, agentId, keys);
  const unseen = withoutKnown(event, known);
  if (!unseen) return { status: "duplicate" };
  const described = describeEvent(unseen.name, unseen.payload);
  if (described.status === "ignored") return described;
  const created = await createMemories(
    memory,
    agentId,
    described.observations.map((o) => ({
      description: o.description,
      // The payload's own time when it has one (an import's events always do).
      createdAt: o.createdAt ?? opts.fallbackTime,
      ...(o.importance !== undefined ? { importance: o.importance } : {}),
      metadata: { ...o.metadata, ...opts.metadata },
    })),
  );
  const fresh = keys.filter((k) => !known.has(k));
  const first = created[0];
  if (first && fresh.length > 0) {
    await memory.db
      .insert(githubEventKeys)
      .values(fresh.map((key) => ({ agentId, key, memoryId: first.id })))
      .onConflictDoNothing();
  }
  return { status: "stored", observations: created.length };
}

/** The keys the agent's stream already has, under the agent's GitHub lock (held to the commit). */
async function knownKeys(memory: MemoryDeps, agentId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  await memory.db.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`github-events:${agentId}`}, 0))`,
  );
  const rows = await memory.db
    .select({ key: githubEventKeys.key })
    .from(githubEventKeys)
    .where(and(eq(githubEventKeys.agentId, agentId), inArray(githubEventKeys.key, keys)));
  return new Set(rows.map((r) => r.key));
}

type PushLike = {
  repository?: { full_name?: string };
  commits?: { id: string }[];
  head_commit?: { id: string } | null;
};

/** The event minus what is known: null when nothing of it is new. */
function withoutKnown(event: GithubEvent, known: Set<string>): GithubEvent | null {
  if (known.size === 0) return event;
  if (event.name !== "push") return null;
  const p = event.payload as PushLike;
  const repo = p.repository?.full_name ?? "";
  const commits = (p.commits ?? []).filter((c) => !known.has(commitKey(repo, c.id)));
  if (commits.length === 0) return null;
  return { name: "push", payload: { ...p, commits } };
}
