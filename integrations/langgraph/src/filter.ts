/**
 * `search` filters with BaseStore's semantics (as LangGraph's InMemoryStore applies them): a plain
 * value matches by strict equality; `$eq $ne $gt $gte $lt $lte $in $nin` compare.
 */
type Operators = Partial<Record<"$eq" | "$ne" | "$gt" | "$gte" | "$lt" | "$lte" | "$in" | "$nin", unknown>>;
const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

const isOperators = (v: unknown): v is Operators =>
  typeof v === "object" && v !== null && Object.keys(v).every((k) => OPERATORS.has(k));

function compare(item: unknown, filter: unknown): boolean {
  if (!isOperators(filter)) return item === filter;
  return Object.entries(filter).every(([op, v]) => {
    switch (op) {
      case "$eq":
        return item === v;
      case "$ne":
        return item !== v;
      case "$gt":
        return Number(item) > Number(v);
      case "$gte":
        return Number(item) >= Number(v);
      case "$lt":
        return Number(item) < Number(v);
      case "$lte":
        return Number(item) <= Number(v);
      case "$in":
        return Array.isArray(v) && v.includes(item);
      case "$nin":
        return !Array.isArray(v) || !v.includes(item);
      default:
        return false;
    }
  });
}

/** Whether an item's value passes every condition of `filter`. */
export const passes = (value: Record<string, unknown>, filter: Record<string, unknown> | undefined) =>
  !filter || Object.entries(filter).every(([k, f]) => compare(value[k], f));

/**
 * The part of `filter` the server can apply as metadata containment (plain or `$eq` scalars), so
 * fewer rows travel; `passes` still decides.
 */
export function serverSide(filter: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(filter ?? {})) {
    const v = isOperators(f) ? f.$eq : f;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}
