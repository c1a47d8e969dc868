import { Invalid } from "../../lib/errors";
import { MEMORY_KINDS, type MemoryKind, type Tier } from "../types";

/** What retrieve and list read when no tiers are named: the ranked stream, recent detail and summaries. */
export const DEFAULT_TIERS: readonly Tier[] = ["recent", "summary"];

/**
 * The kinds of the ranked tiers asked for (docs/adr/0044): `recent` is every kind but `summary`.
 * Both (or none named) leave `kinds` as given; a 400 when kinds and tiers exclude each other.
 */
export function tierKinds(
  kinds: MemoryKind[] | undefined,
  tiers: readonly Exclude<Tier, "archive">[] | undefined,
): MemoryKind[] | undefined {
  if (!tiers || tiers.length === 0) return kinds;
  const recent = tiers.includes("recent");
  const summary = tiers.includes("summary");
  if (recent && summary) return kinds;
  const all = kinds && kinds.length > 0 ? kinds : MEMORY_KINDS;
  const kept = all.filter((k) => (k === "summary" ? summary : recent));
  if (kept.length === 0)
    throw new Invalid("kinds and tiers leave nothing to list or rank", { field: "tiers" });
  return kept;
}
