/**
 * Calibrates the task similarity of lesson consolidation (docs/adr/0018-outcomes-and-lessons.md)
 * with the offline embedder use-lite-512: cosine between task texts that are the same task in
 * other words (should cluster) and different tasks of the same task type (should not).
 * Run: `nice npx tsx bench/explore/lesson-similarity.ts`. Prints both distributions and, per candidate
 * threshold, how many same-task pairs it keeps and how many different-task pairs it merges.
 */
import { cosine } from "../../src/memory/lessons/similarity";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder";

/** Groups of one task each, in different words; every group shares its task type with the others. */
const TASKS: Record<string, string[][]> = {
  deploy: [
    [
      "Deploy the billing service to staging",
      "Deploy billing-service to the staging cluster",
      "Roll out the billing service on staging",
      "Ship the new billing service build to staging",
    ],
    [
      "Rotate the TLS certificate of the public load balancer",
      "Renew the load balancer's TLS certificate",
      "Replace the expiring certificate on the public LB",
    ],
    [
      "Migrate the orders database to Postgres 16",
      "Upgrade the orders database from Postgres 15 to 16",
      "Move the orders DB onto Postgres 16",
    ],
  ],
  "fix-ci": [
    [
      "Fix the flaky upload test in CI",
      "Make the upload test stop failing intermittently on CI",
      "The upload test is flaky in the CI pipeline; fix it",
    ],
    [
      "Fix the lint job that fails on generated files",
      "Lint step breaks on generated code; make it pass",
      "Stop biome from failing the CI on generated files",
    ],
    [
      "Speed up the Docker image build in CI",
      "CI spends too long building the Docker image; make it faster",
      "Cache Docker layers so the CI image build is quicker",
    ],
  ],
  support: [
    [
      "Answer a customer asking for a refund of a double charge",
      "Customer was charged twice and wants their money back",
      "Handle a refund request for a duplicate payment",
    ],
    [
      "Help a user who cannot log in after resetting their password",
      "User is locked out after a password reset",
      "Login fails for a customer right after they changed their password",
    ],
    [
      "Explain to a customer how to export their invoices as CSV",
      "Customer asks how to download invoices in CSV format",
      "How do I export my invoices to a spreadsheet?",
    ],
  ],
};

const embedder = await createOfflineEmbedder();
const same: number[] = [];
const different: number[] = [];
for (const groups of Object.values(TASKS)) {
  const vectors = await Promise.all(groups.map((g) => embedder.embed(g)));
  for (let a = 0; a < groups.length; a++) {
    const va = vectors[a] ?? [];
    for (let i = 0; i < va.length; i++) {
      for (let j = i + 1; j < va.length; j++) same.push(cosine(va[i] ?? [], va[j] ?? []));
      for (let b = a + 1; b < groups.length; b++)
        for (const vb of vectors[b] ?? []) different.push(cosine(va[i] ?? [], vb));
    }
  }
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
};
const f = (x: number) => x.toFixed(3);
const describe = (name: string, xs: number[]) =>
  console.log(
    `${name}: n=${xs.length} min=${f(Math.min(...xs))} p10=${f(q(xs, 0.1))} median=${f(q(xs, 0.5))} p90=${f(q(xs, 0.9))} max=${f(Math.max(...xs))}`,
  );
describe("same task, other words     ", same);
describe("different task, same type  ", different);
console.log("threshold  same-task pairs kept  different-task pairs merged");
for (const t of [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]) {
  const kept = same.filter((x) => x >= t).length;
  const merged = different.filter((x) => x >= t).length;
  console.log(`${t.toFixed(2)}       ${kept}/${same.length}                  ${merged}/${different.length}`);
}
