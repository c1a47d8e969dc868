/**
 * A retention policy: which of an agent's memories may be forgotten on purpose. Stored per agent
 * (agent_settings.retention) and enforced by the `agent.retain` job, or given to a forget request.
 * Rules (docs/adr/0019-sections-and-retention.md):
 * - `maxAgeDays`: memories created more than this many days before now go;
 * - `maxMemories`: the oldest deletable memories go until the stream holds at most this many;
 * - `keepImportanceAtLeast`: memories scored at least this important are kept (unscored ones too);
 * - always kept: lessons, document sections, and any memory a reflection or lesson cites.
 */
export type RetentionPolicy = {
  maxMemories?: number;
  maxAgeDays?: number;
  keepImportanceAtLeast?: number;
};

/** Kinds retention never deletes: lessons are what experience was distilled into; documents have their own lifecycle (DELETE /documents). */
export const NEVER_FORGOTTEN_KINDS = ["lesson", "document"] as const;

/** Kinds whose `citations` protect the memories they cite. */
export const CITING_KINDS = ["reflection", "lesson"] as const;

/** Whether a policy deletes anything at all (keepImportanceAtLeast alone only exempts). */
export const deletesAnything = (p: RetentionPolicy): boolean =>
  p.maxMemories !== undefined || p.maxAgeDays !== undefined;

/** Bounds of a policy's fields (checked by the API schema). */
export const RETENTION_LIMITS = { maxMemories: 100_000_000, maxAgeDays: 36_500 } as const;
