/** What the GitHub describers produce: observations ready for an agent's memory stream. */

/** Filterable facts about the event; `source` is always `github`. */
export type GithubMetadata = {
  source: "github";
  event: string;
  action?: string;
  repository?: string;
  actor?: string;
  number?: number;
  url?: string;
  ref?: string;
  conclusion?: string;
  [k: string]: unknown;
};

/** One natural-language observation of a GitHub event. */
export type GithubObservation = {
  description: string;
  /** ISO 8601 time of the event from the payload itself; null when the payload has none (use delivery time). */
  createdAt: string | null;
  /** Caller-side importance 1..10, set only where the event itself says it matters; otherwise the scorer decides. */
  importance?: number;
  metadata: GithubMetadata;
};

export type DescribeResult =
  | { status: "observations"; observations: GithubObservation[] }
  | { status: "ignored"; reason: string };
