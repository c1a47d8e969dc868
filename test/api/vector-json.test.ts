import { describe, expect, it } from "vitest";
import { parseMemoriesJson, parseScanned, VectorScanner } from "../../src/api/vector-json";

const parse = (text: string) => parseMemoriesJson(Buffer.from(text)) as Record<string, unknown>;
type Batch = { memories: Record<string, unknown>[] };

/** What the service stored before: JSON.parse's double, rounded to float4. */
const asStored = (values: number[]) => Float32Array.from(values, Math.fround);

// Deterministic values of every shape a client prints: full doubles, short decimals, exponents
// both ways, float32 values and exact float32 rounding midpoints (the hardest case), zeros.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const shapes: Record<string, () => number> = {
  "17 digits": () => random() * 2 - 1,
  "1–17 digits": () => Number((random() * 2 - 1).toPrecision(1 + Math.floor(random() * 17))),
  "exponents ±30": () => (random() - 0.5) * 10 ** Math.floor(random() * 60 - 30),
  float32: () => Math.fround(random() - 0.5),
  midpoints: () => {
    const f = Math.fround(random());
    return f + (Math.fround(f * (1 + 2 ** -23)) - f) / 2;
  },
};

describe("parseMemoriesJson", () => {
  for (const [shape, value] of Object.entries(shapes)) {
    it(`reads ${shape} into the same float32 values as Math.fround(JSON.parse(…))`, () => {
      const vectors = Array.from({ length: 20 }, () => [...Array.from({ length: 256 }, value), 0, 1]);
      const text = JSON.stringify({
        memories: vectors.map((embedding, i) => ({ description: `m ${i}`, embedding, importance: 3 })),
      });
      // Also with upper-case exponents and blanks around every comma.
      for (const t of [text, text.replace(/(\d)e([-+])/g, "$1E$2").replace(/,/g, " ,\n\t")]) {
        const body = parse(t) as Batch;
        const plain = JSON.parse(t) as Batch;
        body.memories.forEach((m, i) => {
          expect(m.embedding).toBeInstanceOf(Float32Array);
          const got = m.embedding as Float32Array;
          const want = asStored(plain.memories[i]?.embedding as number[]);
          for (let j = 0; j < want.length; j++) expect(Object.is(got[j], want[j])).toBe(true);
        });
        expect({ ...body, memories: body.memories.map((m) => ({ ...m, embedding: null })) }).toEqual({
          memories: vectors.map((_, i) => ({ description: `m ${i}`, embedding: null, importance: 3 })),
        });
      }
    });
  }

  it("reads a single memory's vector, and leaves the rest of the body to JSON.parse", () => {
    const body = parse(
      '{"description":"caf\\u00e9 ☕ \\"[1,2]\\"","metadata":{"embedding":[1,2],"x":["a"]},"embedding":[0.5, -2e-3, -0]}',
    );
    expect(body.embedding).toEqual(asStored([0.5, -0.002, -0]));
    expect(Object.is((body.embedding as Float32Array)[2], -0)).toBe(true);
    expect(body.description).toBe('café ☕ "[1,2]"');
    // Only a memory's own field is a vector; metadata keeps plain numbers.
    expect(body.metadata).toEqual({ embedding: [1, 2], x: ["a"] });
  });

  it("finds the end of strings with escaped quotes and trailing backslashes", () => {
    const text =
      '{"memories":[{"description":"a \\"q\\" \\\\","embedding":[1.5]},{"description":"\\\\\\"","embedding":[2]}]}';
    const body = parse(text) as Batch;
    expect(body.memories.map((m) => m.embedding)).toEqual([asStored([1.5]), asStored([2])]);
    expect(body.memories.map((m) => m.description)).toEqual(
      (JSON.parse(text) as Batch).memories.map((m) => m.description),
    );
  });

  it("leaves whole bodies it cannot read exactly to JSON.parse (the validators then word the problem)", () => {
    const plain = [
      '{"embedding":[]}',
      '{"embedding":[1,"2"]}',
      '{"embedding":[1,null]}',
      '{"embedding":[1,[2]]}',
      '{"embedding":[1,2,1e39]}',
      '{"embedding":[1,2],"embedding":[3]}',
      '{"embe\\u0064ding":[1,2]}',
      '{"memories":[{"embedding":[1]}],"memories":[{"embedding":[2]}]}',
      '{"memories":[5,{"embedding":[1,2]}]}',
      '{"embedding":"AACAPw=="}',
    ];
    for (const text of plain) expect(parse(text)).toEqual(JSON.parse(text));
    const batch = parse('{"memories":[{"embedding":[1]},{"embedding":[]},{"embedding":[1e999]}]}') as Batch;
    expect(batch.memories.map((m) => m.embedding)).toEqual([[1], [], [Number.POSITIVE_INFINITY]]);
  });

  it("throws JSON.parse's SyntaxError for malformed JSON, also around a vector", () => {
    for (const text of [
      '{"embedding":[01]}',
      '{"embedding":[1.]}',
      '{"embedding":[1,2]',
      '{"embedding":[1,2]]}',
      "{",
    ])
      expect(() => parse(text)).toThrow(SyntaxError);
  });

  it("keeps every vector it handed out: later bodies, long ones and ones it gives up on never rewrite them", () => {
    // Vectors are views of shared slabs (readVector): a region must never be handed out twice.
    const body = (n: number, dims: number, value: () => number) =>
      JSON.stringify({
        memories: Array.from({ length: n }, () => ({ embedding: Array.from({ length: dims }, value) })),
      });
    const vectorsOf = (text: string) =>
      (parse(text) as Batch).memories.map((m) => m.embedding as Float32Array);
    // 700 × 512 floats: past one slab of 256K floats, so across a slab boundary.
    const first = vectorsOf(body(700, 512, () => Math.fround(random() - 0.5)));
    const copies = first.map((v) => Float32Array.from(v));
    vectorsOf(body(300, 2_000, () => 7));
    // A vector given up on half way (past float4's range): its region is written, then abandoned.
    expect(() =>
      vectorsOf(`{"memories":[{"embedding":[${Array(900).fill(9).join(",")},1e39]}]}`),
    ).not.toThrow();
    vectorsOf(body(50, 512, () => -3));
    first.forEach((v, i) => {
      expect(v).toEqual(copies[i]);
    });
    // Views do not overlap: writing one leaves its neighbours as they were.
    (first[0] as Float32Array).fill(42);
    expect(first[1]).toEqual(copies[1]);
  });

  it("reads a body fed in pieces as it arrives exactly as the whole, wherever the pieces are cut", () => {
    const vectors = Array.from({ length: 6 }, (_, i) =>
      Array.from({ length: 40 }, () => Number((random() * 2 - 1).toPrecision(1 + (i % 17)))),
    );
    const bodies = [
      JSON.stringify({
        memories: vectors.map((embedding, i) => ({
          description: `m ${i} "quoted" \\ [1,2] {x}`,
          embedding,
          metadata: { embedding: [1, 2], note: "a\\" },
        })),
      }).replace(/,/g, " , "),
      '{"description":"caf\\u00e9","embedding":[0.5, -2e-3, -0, 1E+2]}',
      '{"memories":[{"embedding":[1]},{"embedding":[]}]}',
      '{"embe\\u0064ding":[1,2]}',
      '{"embedding":[1,2],"embedding":[3]}',
      '{"embedding":[1,2]',
      '{"embedding":[1.]}',
      '{"memories":[{"description":"x","embedding":"AACAPw=="}]}',
      // A scan paused inside a string, in the blanks after it, or inside a vector resumes there.
      '{"memories":[{"description":"a\\"b\\\\"   ,  "embedding"   :   [1, 2 ,3]}]}',
      '{"embedding"  \n :[0.25,1],"k":"\\\\\\"   }',
    ];
    const outcome = (f: () => unknown) => {
      try {
        return f();
      } catch (err) {
        return (err as Error).name;
      }
    };
    for (const text of bodies) {
      const bytes = Buffer.from(text);
      const whole = outcome(() => parseMemoriesJson(bytes));
      // Every single cut and pair of cuts for short bodies; 60 random sets of cuts for the long one.
      const cutSets =
        bytes.length < 200
          ? Array.from({ length: bytes.length }, (_, i) =>
              Array.from({ length: bytes.length - i }, (_, j) => [i, i + j]),
            ).flat()
          : Array.from({ length: 60 }, () =>
              Array.from({ length: 1 + Math.floor(random() * 30) }, () =>
                Math.floor(random() * bytes.length),
              ).sort((a, b) => a - b),
            );
      for (const cuts of cutSets) {
        const scanner = new VectorScanner();
        for (const cut of cuts) scanner.feed(bytes, cut);
        expect(
          outcome(() => parseScanned(scanner, bytes)),
          `${text.slice(0, 40)} cut at ${cuts}`,
        ).toEqual(whole);
      }
    }
  });
});
