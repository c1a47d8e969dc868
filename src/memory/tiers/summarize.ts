/** One memory a summary stands for, as compaction reads it. */
export type Member = {
  id: string;
  description: string;
  createdAt: Date;
  importance: number | null;
  vector: number[];
};

export type Summary = { description: string; vector: number[]; importance: number | null };

/** The extractive method's id, in each summary's metadata: a change of wording is a new version. */
export const EXTRACTIVE_METHOD = "extractive-v1";

/** Characters of a summary's text: about the members' own length for a group of eight short turns. */
export const SUMMARY_CHARS = 1_200;
/** Characters one member may take of it. */
const MEMBER_CHARS = 280;

const norm = (v: number[]) => Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;

/** The members' mean direction (unit vectors averaged, then normalized): the summary's vector. */
export function centroid(vectors: number[][]): number[] {
  const dims = vectors[0]?.length ?? 0;
  const sum = new Array<number>(dims).fill(0);
  for (const v of vectors) {
    const n = norm(v);
    for (let i = 0; i < dims; i++) sum[i] = (sum[i] as number) + (v[i] as number) / n;
  }
  const n = norm(sum);
  return sum.map((x) => x / n);
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot / (norm(a) * norm(b));
};

const clip = (text: string, max: number) => {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
};

/**
 * The offline summary of a group: its most important and most central members' text (half
 * importance, half cosine to the group's centroid), each clipped, within SUMMARY_CHARS, told in
 * the members' time order under the day they span; the centroid as its vector (it matches a query
 * about any member about as well as the members' mean, without a model call); the members' highest
 * importance (the summary is as important as the best thing it holds).
 */
export function summarize(members: Member[]): Summary {
  const vector = centroid(members.map((m) => m.vector));
  const scored = members.map((m) => ({
    m,
    score: 0.5 * ((m.importance ?? 5) / 10) + 0.5 * cosine(m.vector, vector),
  }));
  const chosen = new Set<Member>();
  let used = 0;
  for (const { m } of [...scored].sort((a, b) => b.score - a.score)) {
    const text = clip(m.description, MEMBER_CHARS);
    if (used + text.length > SUMMARY_CHARS && chosen.size > 0) continue;
    chosen.add(m);
    used += text.length + 1;
  }
  const ordered = members.filter((m) => chosen.has(m));
  const first = members[0]?.createdAt.toISOString().slice(0, 10) ?? "";
  const last = members.at(-1)?.createdAt.toISOString().slice(0, 10) ?? "";
  const span = first === last ? first : `${first} to ${last}`;
  const omitted = members.length - ordered.length;
  const description = [
    `${span} (${members.length} memories${omitted > 0 ? `, ${omitted} not quoted` : ""}):`,
    ...ordered.map((m) => clip(m.description, MEMBER_CHARS)),
  ].join("\n");
  const importances = members.map((m) => m.importance).filter((x): x is number => x !== null);
  return { description, vector, importance: importances.length > 0 ? Math.max(...importances) : null };
}

/**
 * Groups of members ordered by time (created_at, id): a group per UTC day and session (metadata
 * `session`, when the caller gives one), split into equal consecutive parts of at most `max`.
 * A day of one memory is left as it is: a summary of one saves nothing.
 */
export function groupMembers<T extends { createdAt: Date; session: string | null }>(
  rows: T[],
  max: number,
): T[][] {
  const byKey = new Map<string, T[]>();
  for (const r of rows) {
    const key = `${r.createdAt.toISOString().slice(0, 10)}|${r.session ?? ""}`;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  const groups: T[][] = [];
  for (const list of byKey.values()) {
    if (list.length < 2) continue;
    const parts = Math.ceil(list.length / max);
    const size = Math.ceil(list.length / parts);
    for (let i = 0; i < list.length; i += size) groups.push(list.slice(i, i + size));
  }
  return groups.filter((g) => g.length >= 2);
}
