/**
 * What PostgreSQL can store, checked before it is asked to: input Postgres would refuse (or
 * silently alter) is a 400 naming the field, never a 500 from the database.
 *
 * - `text`/`jsonb` cannot hold NUL (`\u0000`); `jsonb` refuses lone UTF-16 surrogates, and in
 *   `text` they would silently become U+FFFD.
 * - `timestamptz` input here is limited to years 0001–9999 (what ISO 8601 writes with four digits).
 * - `vector` holds float4: a value beyond ±3.4e38 overflows.
 * - Float8 arithmetic on tiny positive factors underflows (Postgres raises instead of rounding
 *   to 0), so weights have a floor (`MIN_POSITIVE_WEIGHT`).
 */
import { z } from "zod";

/** Largest finite float4 (pgvector's element type). */
export const FLOAT4_MAX = 3.4028234663852886e38;
/** Smallest positive retrieval weight; smaller ones would underflow float8 products in the ranking SQL. */
export const MIN_POSITIVE_WEIGHT = 1e-6;
/** Deepest nesting of a metadata object (the object itself is depth 1). */
export const MAX_JSON_DEPTH = 32;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

/** Why a string cannot be stored as Postgres text/jsonb, or null when it can. */
export function unstorable(s: string): string | null {
  if (s.includes("\u0000")) return "must not contain NUL (\\u0000)";
  if (LONE_SURROGATE.test(s)) return "must be well-formed Unicode (it has a lone surrogate)";
  return null;
}

/**
 * The documented rule for text we must keep but did not write ourselves (GitHub payloads):
 * NUL characters are dropped and lone surrogates become U+FFFD.
 */
export const sanitizeText = (s: string): string =>
  s.replaceAll("\u0000", "").replace(new RegExp(LONE_SURROGATE.source, "g"), "\uFFFD");

/** A parsed JSON value with `sanitizeText` applied to every string and object key. */
export function sanitizeJson(v: unknown): unknown {
  if (typeof v === "string") return sanitizeText(v);
  if (Array.isArray(v)) return v.map(sanitizeJson);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [sanitizeText(k), sanitizeJson(x)]));
}

/** True when an instant lies in years 0001–9999 (UTC). */
export function storableTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST && ms <= LATEST;
}

type Problem = { path: (string | number)[]; message: string };

/** The first part of a JSON value Postgres `jsonb` cannot hold (or that is nested too deep). */
export function jsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): Problem | null {
  const walk = (v: unknown, path: (string | number)[], depth: number): Problem | null => {
    if (typeof v === "string") {
      const why = unstorable(v);
      return why ? { path, message: why } : null;
    }
    if (typeof v === "number")
      return Number.isFinite(v) ? null : { path, message: "must be a finite number" };
    if (v === null || typeof v !== "object") return null;
    if (depth > maxDepth) return { path, message: `nested deeper than ${maxDepth} levels` };
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [i, x])
      : Object.entries(v);
    for (const [k, x] of entries) {
      if (typeof k === "string") {
        const why = unstorable(k);
        if (why) return { path: [...path, k], message: `key ${why}` };
      }
      const p = walk(x, [...path, k], depth + 1);
      if (p) return p;
    }
    return null;
  };
  return walk(value, [], 1);
}

/** A string Postgres text can store: no NUL, no lone surrogate, at most `max` characters. */
export function Text(opts: { max: number; min?: number; trim?: boolean; name?: string }) {
  const name = opts.name ?? "value";
  let s = z.string();
  if (opts.trim) s = s.trim();
  if (opts.min !== undefined) s = s.min(opts.min, opts.min === 1 ? `${name} must not be empty` : undefined);
  return s.max(opts.max, `${name} over ${opts.max} characters`).superRefine((v, ctx) => {
    const why = unstorable(v);
    if (why) ctx.addIssue({ code: "custom", message: `${name} ${why}` });
  });
}

/** Issues for a JSON object as `jsonb`, naming the nested field. */
export function checkJson(v: unknown, ctx: z.RefinementCtx) {
  const p = jsonProblem(v);
  if (p) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
}

/**
 * A JSON object Postgres `jsonb` can store, at most `maxBytes` once serialized as UTF-8 (bytes, not
 * characters: 16,000 "€" are 48,000 bytes). The size is measured only once the depth check passed:
 * serializing a value nested 10,000 deep overflows the stack (a 500 before).
 */
export function JsonObject(opts: { maxBytes: number; name?: string }) {
  const name = opts.name ?? "object";
  return z.record(z.string(), z.unknown()).superRefine((m, ctx) => {
    const p = jsonProblem(m);
    if (p) return ctx.addIssue({ code: "custom", path: p.path, message: p.message });
    const bytes = Buffer.byteLength(JSON.stringify(m));
    if (bytes > opts.maxBytes)
      ctx.addIssue({
        code: "custom",
        message: `${name} over ${opts.maxBytes} bytes (${bytes} bytes as UTF-8 JSON)`,
      });
  });
}

/** True when `value` nests arrays/objects deeper than `max` (the value itself is depth 1); stops at `max`. */
export function nestedDeeper(value: unknown, max: number): boolean {
  const walk = (v: unknown, depth: number): boolean => {
    if (v === null || typeof v !== "object") return false;
    if (depth > max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (walk(x, depth + 1)) return true;
    return false;
  };
  return walk(value, 1);
}

/** An ISO 8601 instant with an offset, in years 0001–9999 once in UTC. */
export const Timestamp = () =>
  z.iso
    .datetime({ offset: true })
    .refine((s) => storableTime(Date.parse(s)), "must lie in years 0001-9999 (UTC)");
