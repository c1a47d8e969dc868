/**
 * Ranking exploration on LoCoMo dev: `npx tsx bench/explore/tune-ranking.ts` after `npm run eval:locomo`
 * has loaded the turns into EVAL_DATABASE_URL. Reads each question's raw components once (age,
 * importance, cosine and BM25 of every memory of its conversation, computed by the service's own
 * SQL) and scores many rankings in memory, on the tuning half of the dev conversations and on the
 * held-out half separately, so a setting is chosen on one half and checked on the other. The
 * chosen settings are then confirmed through the API by `npm run eval:locomo`.
 * This bench reads whole streams into Node by design (a few hundred turns each); the service never does.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { and, sql } from "drizzle-orm";
import pgvector from "pgvector";
import { openDatabase, queryRows } from "../../src/db/client";
import { filterConditions } from "../../src/memory/filters";
import { relevanceSql } from "../../src/memory/retrieve/ranking/relevance/relevance";
import { minMax } from "../../src/memory/retrieve/ranking/scale";
import { weightedSum } from "../../src/memory/retrieve/ranking/score";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder";
import { locomoDir, readLocomo, score } from "../lib/locomo";
import { HELD_OUT, split } from "../lib/split";
import { printTable } from "../lib/stats";

const dir = locomoDir();
const url = process.env.EVAL_DATABASE_URL;
if (!url) throw new Error("set EVAL_DATABASE_URL to the database npm run eval:locomo loaded");
const { queries, fingerprint } = readLocomo(dir);
const asked = queries.filter((q) => q.evidence.length > 0);

type Mem = { dia: string; age: number; imp: number | null; cos: number | null; bm25: number; at: number };
type Item = { conv: string; category: string; evidence: string[]; mems: Mem[] };

const cacheFile = `/tmp/memstream-tune-${fingerprint}.json`;
let items: Item[];
if (existsSync(cacheFile)) items = JSON.parse(readFileSync(cacheFile, "utf8")) as Item[];
else {
  const embedder = await createOfflineEmbedder();
  const vectors = await embedder.embed(asked.map((q) => q.question));
  const database = await openDatabase({ url, dataDir: "", poolSize: 2 });
  items = [];
  for (const [i, q] of asked.entries()) {
    const agentId = `locomo-${fingerprint}-${embedder.modelId}:${q.conversation_id}`;
    const v = { vector: pgvector.toSql(vectors[i]), model: embedder.modelId, dimensions: 512 };
    const where = and(...filterConditions(agentId, {}));
    const rel = relevanceSql(agentId, v, { kind: "hybrid", text: q.question }, where);
    const rows = await queryRows<Mem>(
      database.db,
      sql`WITH ${rel.ctes} done AS (SELECT 1)
        SELECT m.metadata->>'dia_id' AS dia, date_part('epoch', ${q.now}::timestamptz - m.last_accessed_at) AS age,
          m.importance::float8 AS imp, r.cos, r.bm25, date_part('epoch', m.created_at) AS at
        FROM rel_raw r JOIN memories m ON m.id = r.id`,
    );
    items.push({
      conv: q.conversation_id,
      category: `${q.category} ${q.category_name}`,
      evidence: q.evidence,
      mems: rows,
    });
  }
  await database.close();
  writeFileSync(cacheFile, JSON.stringify(items));
}

type Rel = (mems: Mem[]) => number[];
type Config = { name: string; w: [number, number, number]; decay: number; unit: number; rel: Rel };

// Components are computed once per item and reused across configurations (the grid is large).
const memo = new Map<string, number[][]>();
const once = (key: string, f: (it: Item) => number[], its: Item[]) => {
  const hit = memo.get(key);
  if (hit) return hit;
  const v = its.map(f);
  memo.set(key, v);
  return v;
};
const relName = new Map<Rel, string>();
const named = (name: string, r: Rel) => {
  relName.set(r, name);
  return r;
};

const vector = named("vector", (ms: Mem[]) =>
  minMax(
    ms.map((m) => m.cos),
    0,
  ),
);
const hybrid =
  (a: number) =>
  (ms: Mem[]): number[] => {
    const c = vector(ms);
    const b = minMax(
      ms.map((m) => m.bm25),
      0,
    );
    return minMax(
      c.map((x, i) => a * x + (1 - a) * (b[i] as number)),
      0,
    );
  };
const rrf =
  (k: number) =>
  (ms: Mem[]): number[] => {
    const rank = (xs: number[]) => {
      const order = xs.map((x, i) => [x, i] as const).sort((p, q) => q[0] - p[0]);
      const r = new Array<number>(xs.length);
      order.forEach(([, i], j) => {
        r[i] = j + 1;
      });
      return r;
    };
    const rc = rank(ms.map((m) => m.cos ?? -2));
    const rb = rank(ms.map((m) => m.bm25));
    return minMax(
      ms.map((_, i) => 1 / (k + (rc[i] as number)) + 1 / (k + (rb[i] as number))),
      0,
    );
  };
/** Conversation context: a turn's relevance plus a share of its best neighbour's (±n turns). */
const neighbours =
  (base: (ms: Mem[]) => number[], n: number, share: number) =>
  (ms: Mem[]): number[] => {
    const order = ms.map((m, i) => [m.at, i] as const).sort((p, q) => p[0] - q[0]);
    const r = base(ms);
    const out = new Array<number>(ms.length);
    order.forEach(([, i], j) => {
      let best = 0;
      for (let d = -n; d <= n; d++) {
        const o = order[j + d];
        if (d !== 0 && o) best = Math.max(best, r[o[1]] as number);
      }
      out[i] = (r[i] as number) + share * best;
    });
    return minMax(out, 0);
  };

function evaluate(c: Config, subset: Item[], key: string) {
  const rec = once(
    `rec ${c.decay} ${c.unit} ${key}`,
    (it) =>
      minMax(
        it.mems.map((m) => c.decay ** Math.max(m.age / c.unit, 0)),
        0,
      ),
    subset,
  );
  const imp = once(
    `imp ${key}`,
    (it) =>
      minMax(
        it.mems.map((m) => m.imp),
        0.5,
      ),
    subset,
  );
  if (!relName.has(c.rel)) relName.set(c.rel, `r${relName.size}`);
  const rel = once(`rel ${relName.get(c.rel)} ${key}`, (it) => c.rel(it.mems), subset);
  const s = subset.map((it, k) => {
    const [r, im, rl] = [rec[k] as number[], imp[k] as number[], rel[k] as number[]];
    const w = { recency: c.w[0], importance: c.w[1], relevance: c.w[2] };
    const ranked = it.mems
      .map((m, i) => ({
        dia: m.dia,
        s: weightedSum(w, {
          recency: r[i] as number,
          importance: im[i] as number,
          relevance: rl[i] as number,
        }),
      }))
      .sort((a, b) => b.s - a.s)
      .map((x) => x.dia);
    return score(ranked, it.evidence);
  });
  const mean = (f: (x: (typeof s)[number]) => number) => s.reduce((a, x) => a + f(x), 0) / s.length;
  return {
    r5: mean((x) => x.r5),
    r10: mean((x) => x.r10),
    r25: mean((x) => x.r25),
    ndcg: mean((x) => x.ndcg10),
  };
}

const { tune, heldOut } = split(items, (it) => it.conv);
const H = 3_600;
const D = 86_400;
const configs: Config[] = [];
const add = (name: string, w: [number, number, number], decay: number, unit: number, rel: Config["rel"]) =>
  configs.push({ name, w, decay, unit, rel });
add("relevance only, vector", [0, 0, 1], 0.99, H, vector);
add("relevance only, hybrid 0.6", [0, 0, 1], 0.99, H, hybrid(0.6));
for (const a of [0.4, 0.5, 0.7]) add(`relevance only, hybrid ${a}`, [0, 0, 1], 0.99, H, hybrid(a));
for (const k of [10, 60]) add(`relevance only, rrf ${k}`, [0, 0, 1], 0.99, H, rrf(k));
if (!process.env.TUNE_WEIGHTS)
  for (const [n, sh] of [
    [1, 0.3],
    [1, 0.5],
    [1, 0.7],
    [1, 1],
    [2, 0.3],
  ] as const)
    add(
      `relevance only, hybrid 0.6 + neighbours ±${n}·${sh}`,
      [0, 0, 1],
      0.99,
      H,
      neighbours(hybrid(0.6), n, sh),
    );
add("relevance only, vector + neighbours ±1·0.5", [0, 0, 1], 0.99, H, neighbours(vector, 1, 0.5));
add("paper", [1, 1, 1], 0.99, H, vector);
add("reference", [0.5, 2, 3], 0.99, H, vector);
const contextual = neighbours(
  hybrid(Number(process.env.TUNE_ALPHA ?? 0.6)),
  1,
  Number(process.env.TUNE_SHARE ?? 0.5),
);
for (const rel of [
  ["vector", vector],
  ["hybrid", hybrid(0.6)],
  ["contextual", contextual],
] as const)
  for (const unit of [
    ["hour", H],
    ["day", D],
  ] as const)
    if (
      (process.env.TUNE_RELEVANCE ?? rel[0]).split(",").includes(rel[0]) &&
      (process.env.TUNE_UNITS ?? unit[0]).split(",").includes(unit[0])
    )
      for (const decay of (process.env.TUNE_DECAYS ?? "0.98,0.99,0.995").split(",").map(Number))
        for (const w of JSON.parse(
          process.env.TUNE_WEIGHTS ??
            "[[1,1,1],[1,0.5,1],[1,0.5,1.5],[1,0,1.5],[1,1,1.5],[1,0.5,2],[1,1,2],[1,1,3]]",
        ) as [number, number, number][])
          add(`${w.join("/")} ${decay}/${unit[0]} ${rel[0]}`, w, decay, unit[1], rel[1]);

const rows = configs.map((c) => {
  const t = evaluate(c, tune, "tune");
  const h = evaluate(c, heldOut, "held");
  const all = (t.r10 * tune.length + h.r10 * heldOut.length) / items.length;
  const row = {
    config: c.name,
    "tune r@10": t.r10,
    "held-out r@10": h.r10,
    "tune ndcg": t.ndcg,
    "held-out ndcg": h.ndcg,
    "all r@10": all,
  };
  console.log(JSON.stringify(row));
  return row;
});
console.log(`tuning: ${tune.length} questions; held out (${HELD_OUT.join(", ")}): ${heldOut.length}`);
printTable(
  rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" ? v.toFixed(3) : v])),
  ),
);
