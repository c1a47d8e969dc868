/**
 * Prints the offline importance scorer's margins and scores on labelled examples, the figures
 * behind OFFSET and SLOPE in `src/providers/importance/offline-scorer.ts`. Run after changing the
 * anchors or the embedder: `npx tsx bench/explore/offline-importance-calibration.ts`.
 */
import { BUILTIN_MUNDANE, BUILTIN_POIGNANT } from "../../src/providers/importance/offline-examples.js";
import { marginToScore } from "../../src/providers/importance/offline-scorer.js";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder.js";
import { cosine } from "../../src/providers/vector.js";

const SETS: Record<string, string[]> = {
  mundane: [
    "washed the dishes",
    "tied my shoelaces",
    "had a cup of coffee",
    "watered the plants",
    "formatted the code",
    "bumped a dependency patch version",
    "typo fixed",
    "opened the laptop",
    "sat on the couch",
    "folded the laundry",
    "took out the trash",
    "scrolled through social media",
    "merged a one-line docs change",
    "restarted my editor",
    "drank a glass of water",
  ],
  middle: [
    "had a long meeting about the roadmap",
    "a test was flaky",
    "learned a new recipe",
    "got a small raise",
    "reviewed a pull request with many comments",
  ],
  poignant: [
    "my mother died",
    "CI failed on main and the release is blocked",
    "my house burned down",
    "I got my dream job",
    "the database was corrupted and we lost a week of data",
    "my best friend betrayed me",
    "won the lottery",
    "the server crashed during launch",
    "my father had a heart attack",
    "we shipped the product to our first paying customer",
    "the company went bankrupt",
    "an outage deleted customer accounts",
    "I proposed and she said yes",
    "my dog was hit by a car",
  ],
};

const embedder = await createOfflineEmbedder();
const [mundane, poignant] = [
  await embedder.embed([...BUILTIN_MUNDANE]),
  await embedder.embed([...BUILTIN_POIGNANT]),
];
const maxSim = (v: number[], set: number[][]) => Math.max(...set.map((s) => cosine(v, s)));

for (const [label, texts] of Object.entries(SETS)) {
  const vs = await embedder.embed(texts);
  const rows = texts.map((t, i) => {
    const v = vs[i] as number[];
    const margin = maxSim(v, poignant) - maxSim(v, mundane);
    return { margin, score: marginToScore(margin), text: t };
  });
  const margins = rows.map((r) => r.margin);
  console.log(`\n${label}: margin ${Math.min(...margins).toFixed(3)}..${Math.max(...margins).toFixed(3)}`);
  for (const r of rows)
    console.log(`  ${r.margin.toFixed(3).padStart(7)}  ${String(r.score).padStart(2)}  ${r.text}`);
}
