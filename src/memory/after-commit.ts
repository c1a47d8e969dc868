import type { MemoryDeps, PendingWork } from "./deps";

/** The keys of T that are not methods answering Promise<void>. */
type NotAnnouncing<T> = {
  // biome-ignore lint/suspicious/noExplicitAny: any argument list; only the answer type decides.
  [M in keyof T]-?: T[M] extends (...args: any[]) => Promise<void> ? never : M;
}[keyof T];
/** The members of MemoryDeps made only of methods answering Promise<void>: the seams that announce work. */
type AnnouncingKeys = {
  [K in keyof MemoryDeps]-?: NonNullable<MemoryDeps[K]> extends object
    ? [NotAnnouncing<NonNullable<MemoryDeps[K]>>] extends [never]
      ? K
      : never
    : never;
}[keyof MemoryDeps];

// Every announcing seam, or this does not compile: a new seam cannot be missed by afterCommit.
const HELD: Record<AnnouncingKeys, true> = {
  enrichment: true,
  reflection: true,
  outcomes: true,
  supersession: true,
  learner: true,
};
/** The seams through which domain verbs announce background work, all held by `afterCommit`. */
export const ANNOUNCERS = Object.keys(HELD) as AnnouncingKeys[];
type Seams = Pick<MemoryDeps, AnnouncingKeys>;

/**
 * Announcements held while a transaction runs and made once it commits: a job announced before
 * its rows are visible looks for them, finds nothing, and ends. `deps` are the seams to hand to
 * the domain verbs inside the transaction; `flush()` makes the held announcements after the
 * commit, each kind once (work items merged, agents deduplicated); a rollback drops them by never
 * calling it. Seams absent from `base` stay absent.
 */
export function afterCommit(base: Seams): { deps: Seams; flush(): Promise<void> } {
  const pending: PendingWork[] = [];
  const embedded: PendingWork[] = [];
  const gained = new Set<string>();
  const recorded = new Map<string, [string, string | null]>();
  const feedback = new Set<string>();
  const deps: Seams = {
    enrichment: { pending: async (items) => void pending.push(...items) },
    reflection: { importanceAdded: async (agentId) => void gained.add(agentId) },
    ...(base.outcomes && {
      outcomes: {
        recorded: async (agentId: string, taskType: string | null) =>
          void recorded.set(JSON.stringify([agentId, taskType]), [agentId, taskType]),
      },
    }),
    ...(base.supersession && {
      supersession: { embedded: async (items: PendingWork[]) => void embedded.push(...items) },
    }),
    ...(base.learner && {
      learner: { feedbackGiven: async (agentId: string) => void feedback.add(agentId) },
    }),
  };
  return {
    deps,
    async flush() {
      if (pending.length > 0) await base.enrichment.pending(pending.splice(0));
      if (embedded.length > 0) await base.supersession?.embedded(embedded.splice(0));
      for (const agentId of gained) await base.reflection.importanceAdded(agentId);
      for (const [agentId, taskType] of recorded.values()) await base.outcomes?.recorded(agentId, taskType);
      for (const agentId of feedback) await base.learner?.feedbackGiven(agentId);
      gained.clear();
      recorded.clear();
      feedback.clear();
    },
  };
}
