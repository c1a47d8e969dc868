/**
 * Mutation check of the ranking agreement test (test/memory/ranking-agreement.test.ts): each
 * mutant perturbs one piece of one statement's formula (a sign, a weight, a scale, a bound, a
 * tie rule), the test runs against it, and the mutant must be killed (the test fails). Files are
 * restored after each run, also on Ctrl-C.
 *   TEST_DATABASE_URL=… npx tsx scripts/ranking-mutants.ts [--only <label substring>]
 * Each run checks AGREEMENT_RUNS cases (default here 400: a perturbed bound shows on ~1 % of
 * random cases, so the test's own default catches most mutants in one run and all of them over
 * a few); FUZZ_SEED passes through. Prints one line per mutant and exits 1 if any survived.
 * Takes ~20 s per mutant.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the mutants are source text that contains template placeholders.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

type Mutant = { label: string; file: string; from: string; to: string };

const R = "src/memory/retrieve/";
const MUTANTS: Mutant[] = [
  // The ranking module: what every statement is generated from.
  {
    label: "equal component scales to 0.4",
    file: `${R}ranking/scale.ts`,
    from: "EQUAL = 0.5",
    to: "EQUAL = 0.4",
  },
  {
    label: "min-max scaling reversed",
    file: `${R}ranking/scale.ts`,
    from: "THEN (${x} - ${lo}) / (${hi} - ${lo})",
    to: "THEN (${hi} - ${x}) / (${hi} - ${lo})",
  },
  {
    label: "pending importance scales to 0.6",
    file: `${R}ranking/components.ts`,
    from: 'importance: { column: "imp", missing: 0.5 }',
    to: 'importance: { column: "imp", missing: 0.6 }',
  },
  {
    label: "no vector scales to 0.1",
    file: `${R}ranking/components.ts`,
    from: 'relevance: { column: "rel", missing: 0 }',
    to: 'relevance: { column: "rel", missing: 0.1 }',
  },
  {
    label: "recency unit ignored (always hours)",
    file: `${R}ranking/components.ts`,
    from: 'RECENCY_UNITS[p.recencyUnit ?? "hour"]',
    to: "RECENCY_UNITS.hour",
  },
  {
    label: "access after now not clamped to age 0",
    file: `${R}ranking/components.ts`,
    from: "/ ${unit}, 0)",
    to: "/ ${unit}, -1e9)",
  },
  {
    label: "recency floor at e^-60",
    file: `${R}ranking/components.ts`,
    from: "RECENCY_FLOOR_EXPONENT = 600",
    to: "RECENCY_FLOOR_EXPONENT = 60",
  },
  { label: "weighted sum subtracts", file: `${R}ranking/score.ts`, from: "sql` + `,", to: "sql` - `," },
  {
    label: "weight squared",
    file: `${R}ranking/score.ts`,
    from: "sql`${w[c]}::float8 * ${s}`",
    to: "sql`${w[c] * w[c]}::float8 * ${s}`",
  },
  // Versions and supersession (ranking/versions.ts, statements/select.ts): the full statement's lift.
  {
    label: "versions: similarity threshold 0.3",
    file: `${R}ranking/versions.ts`,
    from: "VERSION_SIMILARITY = 0.55",
    to: "VERSION_SIMILARITY = 0.3",
  },
  {
    label: "supersession: replacement one hop only",
    file: `${R}ranking/versions.ts`,
    from: "REPLACEMENT_HOPS = 4",
    to: "REPLACEMENT_HOPS = 1",
  },
  {
    label: "supersession: replacement not raised",
    file: `${R}statements/select.ts`,
    from: "greatest(r.base, l.score, x.score) AS score",
    to: "greatest(r.base, l.score) AS score",
  },
  {
    label: "supersession: superseded first at equal scores",
    file: `${R}statements/select.ts`,
    from: "ORDER BY top.score DESC, top.superseded,",
    to: "ORDER BY top.score DESC, top.superseded DESC,",
  },
  // Pruning bounds (ranking/bounds.ts): the threshold and fast statements.
  {
    label: "pruning slack negative",
    file: `${R}ranking/bounds.ts`,
    from: "PRUNE_EPS = 1e-9",
    to: "PRUNE_EPS = -1e-3",
  },
  {
    label: "relevance cut 1.5× too high",
    file: `${R}ranking/bounds.ts`,
    from: "(${kth} - ${eps} - ${bm}) / ${wv}",
    to: "1.5 * (${kth} - ${eps} - ${bm}) / ${wv}",
  },
  {
    label: "unseen bound 0.9× the listed score",
    file: `${R}ranking/bounds.ts`,
    from: "sql`${bm} + ${weightedSumSql",
    to: "sql`0.9 * ${bm} + ${weightedSumSql",
  },
  {
    label: "k-th beats its bound by 0.5 less",
    file: `${R}ranking/bounds.ts`,
    from: "sql`${kth} > ${bound} + ${eps}`",
    to: "sql`${kth} > ${bound} - 0.5`",
  },
  // The threshold statement.
  {
    label: "threshold: k-th score taken one rank too high",
    file: `${R}statements/threshold.ts`,
    from: "OFFSET ${p.k - 1} LIMIT 1",
    to: "OFFSET ${Math.max(p.k - 2, 0)} LIMIT 1",
  },
  {
    label: "threshold: b_M 0.1 low",
    file: `${R}statements/threshold.ts`,
    from: "THEN min(b) ELSE",
    to: "THEN min(b) - 0.1 ELSE",
  },
  {
    label: "threshold: levels read oldest first",
    file: `${R}statements/threshold.ts`,
    from: "ORDER BY last_accessed_at DESC LIMIT ${listSize}",
    to: "ORDER BY last_accessed_at ASC LIMIT ${listSize}",
  },
  // The fast statement.
  {
    label: "fast: τ one lower",
    file: `${R}statements/fast.ts`,
    from: "sql`(SELECT min(blist.b) FROM blist)`",
    to: "sql`(SELECT min(blist.b) - 1 FROM blist)`",
  },
  {
    label: "fast: relevance minimum 0.01 low",
    file: `${R}statements/fast.ts`,
    from: "(SELECT min(rel) FROM cand) AS rel_lo",
    to: "(SELECT min(rel) - 0.01 FROM cand) AS rel_lo",
  },
  {
    label: "fast: levels read oldest first",
    file: `${R}statements/fast.ts`,
    from: "ORDER BY last_accessed_at DESC LIMIT ${depth.recImp}",
    to: "ORDER BY last_accessed_at ASC LIMIT ${depth.recImp}",
  },
  // The fused statement (ranking/relevance/relevance.ts's indexed rows, lexicon/stats.ts).
  {
    label: "fused: BM25's least value ignores memories without a posting",
    file: `${R}ranking/relevance/relevance.ts`,
    from: "CASE WHEN l.n < s.n THEN least(0::float8, l.lo) ELSE l.lo END",
    to: "l.lo",
  },
  {
    label: "fused: the cosine maximum 0.01 high",
    file: `${R}ranking/relevance/relevance.ts`,
    from: "max(cos) AS cos_hi",
    to: "max(cos) + 0.01 AS cos_hi",
  },
  {
    label: "fused: the kept count one more",
    file: "src/memory/lexicon/stats.ts",
    from: "coalesce(sum(docs), 0)::float8 AS n",
    to: "(coalesce(sum(docs), 0) + 1)::float8 AS n",
  },
  {
    label: "fused: a candidate's importance from the list's level",
    file: `${R}statements/threshold.ts`,
    from: "(SELECT ${alias}.id, ${alias}.last_accessed_at, ${alias}.importance) m",
    to: "(SELECT ${alias}.id, ${alias}.last_accessed_at, 5 AS importance) m",
  },
  // The full and sectioned statements.
  {
    label: "full: ties by id descending",
    file: `${R}statements/select.ts`,
    from: 'ORDER BY score DESC, id COLLATE "C"\n      LIMIT',
    to: "ORDER BY score DESC, id DESC\n      LIMIT",
  },
  {
    label: "sections: one more per section",
    file: `${R}statements/sections.ts`,
    from: "LIMIT sk.k",
    to: "LIMIT sk.k + 1",
  },
  {
    label: "sections: the rest section gets nothing",
    file: `${R}statements/sections.ts`,
    from: "const otherwise = rest >= 0 ? sql`${rest}::int` : sql`NULL::int`;",
    to: "const otherwise = sql`NULL::int`;",
  },
  {
    label: "time window: no fallback when none is inside",
    file: `${R}statements/candidates.ts`,
    from: "cond: sql`(NOT (SELECT hit FROM tw) OR (${inside}))`",
    to: "cond: sql`(${inside})`",
  },
  // Relevance kinds.
  { label: "BM25 k1 1.4", file: `${R}ranking/relevance/kinds.ts`, from: "k1: 1.2", to: "k1: 1.4" },
  {
    label: "BM25 idf +1",
    file: `${R}ranking/relevance/bm25.ts`,
    from: "ln(1 + (s.n - f.df + 0.5)",
    to: "ln(2 + (s.n - f.df + 0.5)",
  },
  {
    label: "contextual share 0.6",
    file: `${R}ranking/relevance/kinds.ts`,
    from: "CONTEXT_SHARE = 0.7",
    to: "CONTEXT_SHARE = 0.6",
  },
  {
    label: "windowed neighbour weight 0.4",
    file: `${R}ranking/relevance/kinds.ts`,
    from: "CONTEXT_FIELD_WEIGHT = 0.5",
    to: "CONTEXT_FIELD_WEIGHT = 0.4",
  },
  {
    label: "windowed reach 4",
    file: `${R}ranking/relevance/kinds.ts`,
    from: "CONTEXT_FIELD_REACH = 5",
    to: "CONTEXT_FIELD_REACH = 4",
  },
  {
    label: "windowed decay 0.8",
    file: `${R}ranking/relevance/kinds.ts`,
    from: "CONTEXT_FIELD_DECAY = 0.7",
    to: "CONTEXT_FIELD_DECAY = 0.8",
  },
  {
    label: "windowed words across a run's end",
    file: `${R}ranking/relevance/bm25.ts`,
    from: "WHERE s.pos + d.k BETWEEN s.lo AND s.hi",
    to: "WHERE true",
  },
  {
    label: "windowed length across a run's end",
    file: `${R}ranking/relevance/bm25.ts`,
    from: "CASE WHEN pos - ${i + 1} >= lo THEN",
    to: "CASE WHEN true THEN",
  },
  {
    label: "windowed form: at least 9 of each",
    file: `${R}ranking/relevance/kinds.ts`,
    from: "FORM_MIN = 10",
    to: "FORM_MIN = 9",
  },
  {
    label: "windowed form: a question mark anywhere asks",
    file: `${R}ranking/relevance/kinds.ts`,
    from: 'ASKS_PATTERN = "[?？][\\"\'”’)\\\\]]*\\\\s*$"',
    to: 'ASKS_PATTERN = "[?？]"',
  },
  {
    label: "windowed form: the memory's component left out of the denominator",
    file: `${R}ranking/relevance/form.ts`,
    from: "sqrt((1 - q.qf * q.qf) * (1 - r.cf * r.cf))",
    to: "sqrt(1 - q.qf * q.qf)",
  },
  {
    label: "windowed form: the direction leaves out lessons",
    file: `${R}ranking/relevance/form.ts`,
    from: "WHERE memories.agent_id = ${agentId}\n",
    to: "WHERE memories.agent_id = ${agentId} AND memories.kind <> 'lesson'\n",
  },
  {
    label: "hybrid: lexical share α instead of 1 − α",
    file: `${R}ranking/relevance/relevance.ts`,
    from: "${1 - a}::float8 * ${minMaxOverSql",
    to: "${a}::float8 * ${minMaxOverSql",
  },
  {
    label: "contextual: neighbour two back",
    file: `${R}ranking/relevance/relevance.ts`,
    from: "coalesce(lag(rel) OVER w, 0)",
    to: "coalesce(lag(rel, 2) OVER w, 0)",
  },
  {
    label: "vectors embedded at retrieve time ignored",
    file: `${R}ranking/relevance/vector.ts`,
    from: "embedding: sql`coalesce(e.embedding, fresh.embedding)`",
    to: "embedding: sql`e.embedding`",
  },
];

const { values } = parseArgs({ options: { only: { type: "string" } } });
const chosen = MUTANTS.filter((m) => !values.only || m.label.includes(values.only));
const originals = new Map<string, string>();
let child: ChildProcess | null = null;
const restore = () => {
  for (const [file, text] of originals) writeFileSync(file, text);
};
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    restore();
    child?.kill("SIGTERM");
    process.exit(130);
  });

/** Runs the agreement test; its exit code and output. */
function agreement(): Promise<{ status: number | null; stdout: string }> {
  return new Promise((done) => {
    let stdout = "";
    child = spawn("npx", ["vitest", "run", "test/memory/ranking-agreement.test.ts"], {
      env: { ...process.env, AGREEMENT_RUNS: process.env.AGREEMENT_RUNS ?? "400" },
    });
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.on("close", (status) => done({ status, stdout }));
  });
}

let survived = 0;
for (const m of chosen) {
  const text = readFileSync(m.file, "utf8");
  const at = text.split(m.from).length - 1;
  if (at !== 1) throw new Error(`${m.label}: "${m.from}" occurs ${at} times in ${m.file}`);
  originals.set(m.file, text);
  writeFileSync(m.file, text.replace(m.from, m.to));
  try {
    const t0 = Date.now();
    const run = await agreement();
    const killed = run.status !== 0;
    if (!killed) survived++;
    const why = killed ? (/→ (.*)/.exec(run.stdout)?.[1] ?? "failed").slice(0, 100) : "";
    console.log(
      `${killed ? "killed  " : "SURVIVED"} ${m.label} (${((Date.now() - t0) / 1000).toFixed(0)} s) ${why}`,
    );
  } finally {
    restore();
    originals.clear();
  }
}
console.log(`${chosen.length - survived} of ${chosen.length} mutants killed`);
process.exit(survived > 0 ? 1 : 0);
