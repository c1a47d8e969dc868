import type { RetentionPolicy } from "./policy";

/** Ids listed in a forget report: enough to check what a policy picks, bounded whatever it deletes. */
export const FORGET_SAMPLE = 20;

/** What a forget did (or, with dryRun, would do). */
export type ForgetReport = {
  dryRun: boolean;
  /** The policy applied, and whether it was the request's or the agent's setting. */
  policy: RetentionPolicy;
  policySource: "request" | "agent";
  /** Memories deleted, or that a run now would delete. */
  count: number;
  /** `count` by kind; kinds with none are left out. */
  byKind: Record<string, number>;
  /** Up to FORGET_SAMPLE of their ids, oldest first. */
  sample: string[];
};
