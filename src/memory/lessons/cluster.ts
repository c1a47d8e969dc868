import { cosine } from "./similarity";

/** An outcome as clustering sees it: its id and its task's vector. */
export type Point = { id: string; vector: number[] };

/** An existing lesson: its id and the vectors of (some of) the outcomes it rests on. */
export type LessonGroup = { lessonId: string; members: Point[] };

export type Clustering = {
  /** New outcomes joining existing lessons, by lesson id. */
  joins: Map<string, string[]>;
  /** Groups of new outcomes with at least `minOutcomes` members: each becomes a lesson. */
  created: string[][];
  /** Outcomes in groups still too small: reconsidered on the next run. */
  waiting: string[];
};

const meanSimilarity = (p: Point, members: readonly Point[]) =>
  members.length === 0 ? 0 : members.reduce((sum, m) => sum + cosine(p.vector, m.vector), 0) / members.length;

/**
 * Assigns outcomes not yet in a lesson (in the order given: oldest first), deterministically.
 * Each joins the existing lesson whose members it is most similar to on average, when that mean is
 * at least `threshold`; else the most similar group of new outcomes (same rule); else starts a
 * group. Average linkage, not nearest member, so a group cannot drift by chaining neighbours.
 */
export function cluster(
  fresh: readonly Point[],
  lessons: readonly LessonGroup[],
  opts: { threshold: number; minOutcomes: number },
): Clustering {
  const joins = new Map<string, string[]>();
  const groups: Point[][] = [];
  for (const p of fresh) {
    const lesson = best(lessons.map((l) => ({ key: l.lessonId, score: meanSimilarity(p, l.members) })));
    if (lesson && lesson.score >= opts.threshold) {
      joins.set(lesson.key, [...(joins.get(lesson.key) ?? []), p.id]);
      continue;
    }
    const group = best(groups.map((g, i) => ({ key: i, score: meanSimilarity(p, g) })));
    if (group && group.score >= opts.threshold) groups[group.key]?.push(p);
    else groups.push([p]);
  }
  const created = groups.filter((g) => g.length >= opts.minOutcomes).map((g) => g.map((p) => p.id));
  const waiting = groups.filter((g) => g.length < opts.minOutcomes).flatMap((g) => g.map((p) => p.id));
  return { joins, created, waiting };
}

function best<K>(scored: { key: K; score: number }[]): { key: K; score: number } | null {
  let top: { key: K; score: number } | null = null;
  for (const s of scored) if (!top || s.score > top.score) top = s;
  return top;
}
