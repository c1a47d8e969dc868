import type { Announce, EventKind, WorkEvent } from "./events";

/**
 * How held events of each kind are made one: a kind carrying memories merges their lists (one
 * event per kind and `fields`), any other kind is made once per distinct event (an agent told
 * twice is told once). Every kind is named, or this does not compile.
 */
const COALESCE: Record<EventKind, "merge items" | "once"> = {
  "memories.pending": "merge items",
  "memories.embedded": "merge items",
  "importance.added": "once",
  "outcome.recorded": "once",
  "feedback.given": "once",
  "retention.due": "once",
  "delivery.accepted": "once",
  "import.opened": "once",
  "events.recorded": "once",
  "events.pending": "once",
};

/** Every kind of event, as the buffer holds them. */
export const HELD_KINDS = Object.keys(COALESCE) as EventKind[];

/** Held events made one per kind (see COALESCE), in the order they were first held. */
export function coalesce(events: readonly WorkEvent[]): WorkEvent[] {
  const out = new Map<string, WorkEvent>();
  for (const e of events) {
    if ("items" in e && COALESCE[e.kind] === "merge items") {
      const key = JSON.stringify({ ...e, items: null });
      const held = out.get(key);
      if (held && "items" in held) held.items.push(...e.items);
      else out.set(key, { ...e, items: [...e.items] });
    } else out.set(JSON.stringify(e), e);
  }
  return [...out.values()];
}

/**
 * Announcements held while a transaction runs and made once it commits: a job announced before
 * its rows are visible looks for them, finds nothing, and ends. `announce` is what to hand to the
 * domain verbs inside the transaction; `flush()` makes the held events, coalesced, in one call to
 * `base` after the commit; a rollback drops them by never calling it.
 */
export function afterCommit(base: Announce): { announce: Announce; flush(): Promise<void> } {
  const held: WorkEvent[] = [];
  return {
    announce: async (events) => void held.push(...events),
    async flush() {
      if (held.length > 0) await base(coalesce(held.splice(0)));
    },
  };
}
