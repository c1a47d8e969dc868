import fc from "fast-check";
import { type OpenApiDoc, type Operation, type Parameter, resolve, type Schema } from "./openapi";

/**
 * fast-check arbitraries for requests to one documented operation: mostly shaped by its schemas
 * (so requests get past the first check and reach the domain and the database), with values
 * swapped for hostile ones: NUL and lone surrogates, float4 overflow, underflowing floats, years
 * outside 0001–9999, deep JSON, wrong types, broken percent-encoding and JSON.
 */

/** Characters and fragments Postgres, URLs or JSON handle badly. */
const NASTY_UNIT = fc.constantFrom(
  "\u0000",
  "\ud800",
  "\udfff",
  "\ud83d\ude00",
  "\u202e",
  "\ufeff",
  "'",
  '"',
  "\\",
  "%",
  "%00",
  "/",
  "..",
  ",",
  "{",
  "]",
  " ",
  "\n",
  "é",
  "a",
  "0",
);

/** Strings likely to break something: hostile fragments mixed with ordinary characters. */
export const nastyString = (maxLength = 40) =>
  fc.string({ unit: fc.oneof(NASTY_UNIT, fc.string({ unit: "binary", maxLength: 1 })), maxLength });

const NASTY_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1e-320,
  5e-324,
  1e-46,
  -1e-46,
  1e-7,
  1e-6,
  3.4028235e38,
  1e39,
  -1e39,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 31,
  -(2 ** 31),
  1.5,
  99.999999,
  100.0000001,
  200,
  201,
  1e6,
];

const NASTY_TIMES = [
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+01:00",
  "0001-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "9999-12-31T23:59:59-01:00",
  "1970-01-01T00:00:00Z",
  "2026-02-30T10:00:00Z",
  "2026-11-22T10:00:00.123456789Z",
  "2026-11-22T25:00:00Z",
  "2026-11-22",
  "1900-01-01T00:00:00+14:00",
];

/** JSON nested `depth` levels. */
const deep = (depth: number): unknown => {
  let v: unknown = "x";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

/** Any JSON value, including the hostile ones. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString(),
  fc.constantFrom(...NASTY_NUMBERS),
  fc.constantFrom(...NASTY_TIMES),
  fc.constantFrom(null, true, false, [], {}, deep(40), deep(2000)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(nastyString(8), fc.oneof(nastyString(), fc.constantFrom(...NASTY_NUMBERS)), { maxKeys: 3 }),
);

const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A value shaped by `schema`, with hostile values mixed in at every level. */
export function valueFor(doc: OpenApiDoc, schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (!s || depth > 4) return hostileValue;
  return fc.oneof({ weight: 5, arbitrary: shaped(doc, s, depth) }, { weight: 1, arbitrary: hostileValue });
}

function shaped(doc: OpenApiDoc, s: Schema, depth: number): fc.Arbitrary<unknown> {
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => valueFor(doc, b, depth + 1)));
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), nastyString(10));
  const t = types(s);
  if (t.includes("null") && t.length > 1) {
    return fc.oneof(fc.constant(null), shaped(doc, { ...s, type: t.filter((x) => x !== "null") }, depth));
  }
  if (t.includes("string")) {
    if (s.format === "date-time") return fc.oneof(fc.constantFrom(...NASTY_TIMES), fc.date().map(isoOrJunk));
    const max = s.maxLength ?? 200;
    return fc.oneof(
      nastyString(Math.min(max, 60)),
      fc.constant("x".repeat(max)),
      fc.constant("x".repeat(max + 1)),
      fc.constant(""),
    );
  }
  if (t.includes("integer") || t.includes("number")) {
    const lo = s.minimum ?? s.exclusiveMinimum ?? -1e6;
    const hi = s.maximum ?? 1e6;
    const inRange = t.includes("integer")
      ? fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31) })
      : fc.double({ min: lo, max: hi, noNaN: true });
    return fc.oneof(inRange, fc.constantFrom(...NASTY_NUMBERS, lo, hi));
  }
  if (t.includes("boolean")) return fc.boolean();
  if (t.includes("array")) {
    const item = valueFor(doc, s.items, depth + 1);
    const min = s.minItems ?? 0;
    return fc.oneof(
      fc.array(item, { minLength: min, maxLength: min + 3 }),
      fc.constant(Array.from({ length: (s.maxItems ?? 50) + 1 }, () => 0.5)),
    );
  }
  if (t.includes("object") || s.properties) {
    const props = Object.entries(s.properties ?? {});
    if (props.length === 0) {
      return fc.dictionary(nastyString(12), hostileValue, { maxKeys: 4 });
    }
    const required = new Set(s.required ?? []);
    const record = Object.fromEntries(props.map(([k, v]) => [k, valueFor(doc, v, depth + 1)]));
    return fc
      .tuple(
        fc.record(record, { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) }),
        fc.option(fc.tuple(nastyString(8), hostileValue), { freq: 6 }),
      )
      .map(([obj, extra]) => (extra ? { ...obj, [extra[0]]: extra[1] } : obj));
  }
  return hostileValue;
}

const isoOrJunk = (d: Date) => (Number.isNaN(d.getTime()) ? "not a date" : d.toISOString());

/**
 * Percent-encodes any string, lone surrogates included (as their WTF-8 bytes, which no
 * `encodeURIComponent` will write), so they reach the server as a hostile client sends them.
 */
export function percentEncode(s: string): string {
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** A string for a URL slot: percent-encoded, or raw junk such as `%zz`, `%C0%80` (overlong NUL). */
const urlPart = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: value.map((v) => percentEncode(typeof v === "string" ? v : (JSON.stringify(v) ?? ""))),
    },
    { weight: 1, arbitrary: fc.constantFrom("%zz", "%C0%80", "%00", "%ED%A0%80", "%", "%2F..%2F", "a%2Fb") },
  );

export type FuzzRequest = { path: string; headers: Record<string, string>; body?: string };

/**
 * Requests to `op`: path ids (mostly `validAgent`, so requests reach the database), query
 * strings and JSON bodies from the documented schemas, sometimes a body that is not JSON.
 */
export function requestFor(
  doc: OpenApiDoc,
  o: Operation,
  opts: { validAgent: fc.Arbitrary<string>; headers: Record<string, string> },
): fc.Arbitrary<FuzzRequest> {
  const params = o.op.parameters ?? [];
  const pathValue = (p: Parameter) =>
    p.name === "agentId"
      ? fc.oneof(
          { weight: 4, arbitrary: opts.validAgent.map(percentEncode) },
          { weight: 1, arbitrary: urlPart(nastyString()) },
        )
      : urlPart(fc.oneof(fc.constant("mem_00000000000000000000"), valueFor(doc, p.schema)));
  const pathArb = fc.record(
    Object.fromEntries(params.filter((p) => p.in === "path").map((p) => [p.name, pathValue(p)])),
  );
  const queryParams = params.filter((p) => p.in === "query");
  const queryArb = fc
    .array(fc.oneof(fc.constantFrom(...queryParams.map((p) => p.name), "unknown"), nastyString(6)), {
      maxLength: 4,
    })
    .chain((names) =>
      fc.tuple(
        ...names.map((name) => {
          const p = queryParams.find((q) => q.name === name);
          const v =
            p?.name === "metadata"
              ? valueFor(doc, { type: "object" }).map((x) => JSON.stringify(x) ?? "")
              : valueFor(doc, p?.schema);
          return fc.tuple(fc.constant(percentEncode(name)), urlPart(v));
        }),
      ),
    );
  const media = o.op.requestBody?.content["application/json"];
  const bodyArb: fc.Arbitrary<string | undefined> = media
    ? fc.oneof(
        { weight: 8, arbitrary: valueFor(doc, media.schema).map((v) => JSON.stringify(v)) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "",
            "{",
            "nul",
            '{"a":1}{"b":2}',
            "[]",
            '"\\ud800"',
            '{"description":"\\u0000"}',
          ),
        },
      )
    : o.method === "GET"
      ? fc.constant(undefined) // fetch cannot send a GET body
      : fc.option(fc.constantFrom("{}", "junk"), { freq: 4 }).map((b) => b ?? undefined);
  return fc.tuple(pathArb, queryArb, bodyArb).map(([pathValues, query, body]) => {
    const path = o.path.replace(/\{(\w+)\}/g, (_, n: string) => pathValues[n] ?? "x");
    const qs = query.map(([k, v]) => `${k}=${v}`).join("&");
    const headers: Record<string, string> = { ...opts.headers };
    if (body !== undefined) headers["content-type"] = "application/json";
    return { path: qs ? `${path}?${qs}` : path, headers, body };
  });
}
