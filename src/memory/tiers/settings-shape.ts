/**
 * An agent's compaction settings (agent_settings.compaction; docs/adr/0044-memory-tiers.md). Null
 * or a field left out = the deployment's (MEMSTREAM_COMPACT_*); `afterDays` null = off.
 */
export type CompactionSettings = {
  /** Observations older than this many days are compacted; null = never. */
  afterDays?: number | null;
  /** Most members one summary stands for. */
  groupMax?: number;
  /** Expansions after which an archived memory is promoted back to the ranked stream; 0 = never. */
  promoteAfter?: number;
};

/** What a field left out of an agent's compaction settings means. */
export const COMPACTION_DEFAULTS = { groupMax: 8, promoteAfter: 3 } as const;

/** The agent's settings with every field given. */
export type Compaction = { afterDays: number | null; groupMax: number; promoteAfter: number };

export const compactionOf = (s: CompactionSettings | null | undefined): Compaction => ({
  afterDays: s?.afterDays ?? null,
  groupMax: s?.groupMax ?? COMPACTION_DEFAULTS.groupMax,
  promoteAfter: s?.promoteAfter ?? COMPACTION_DEFAULTS.promoteAfter,
});
