/**
 * The LoCoMo dev conversations split in two: settings are tuned on the first half and checked on
 * the held-out half, so a figure chosen by search is not reported as if it were unseen data.
 */
export const HELD_OUT = ["conv-42", "conv-43"] as const;

/** Items of the tuning conversations and of the held-out ones. */
export function split<T>(items: T[], conversation: (x: T) => string): { tune: T[]; heldOut: T[] } {
  const held = new Set<string>(HELD_OUT);
  return {
    tune: items.filter((x) => !held.has(conversation(x))),
    heldOut: items.filter((x) => held.has(conversation(x))),
  };
}
