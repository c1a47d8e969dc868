/**
 * Summarizes V8 CPU profiles (`node --cpu-prof`) by self time: the top functions (name, file:line)
 * and the share per package (node_modules/<pkg>, src/…, node internals).
 * `npx tsx bench/lib/profile-summary.ts file.cpuprofile [more…] [--top 30]`
 */
import { readFileSync } from "node:fs";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 30;
// Without --top, topAt + 1 is 0: the first file must not be taken for its value.
const files = args.filter((_, i) => topAt < 0 || (i !== topAt && i !== topAt + 1));

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
let total = 0;
for (const file of files) {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  // Samples under node:inspector are the profiler stopping and serializing itself: left out.
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inspector = (id: number | undefined): boolean =>
    id !== undefined &&
    ((nodes.get(id) as Node).callFrame.url === "node:inspector" || inspector(parent.get(id)));
  p.samples.forEach((id, i) => {
    if (inspector(id)) return;
    const us = p.timeDeltas[i] ?? 0;
    const f = (nodes.get(id) as Node).callFrame;
    const where = f.url ? `${short(f.url)}:${f.lineNumber + 1}` : "";
    const key = `${f.functionName || "(anonymous)"} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const pkg = packageOf(f.url, f.functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    total += us;
  });
}
const print = (title: string, m: Map<string, number>, n: number) => {
  console.log(`\n${title} (of ${(total / 1e6).toFixed(1)} s sampled)`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`,
    );
};
print("self time by function", byFunction, top);
print("self time by package", byPackage, 20);

function short(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + 13);
  const src = url.search(/\/(src|bench)\//);
  return src >= 0 ? url.slice(src + 1) : url.replace(/^file:\/\//, "");
}

function packageOf(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native/V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return "node internals";
  const src = url.search(/\/src\//);
  return src >= 0
    ? url
        .slice(src + 1)
        .split("/")
        .slice(0, 3)
        .join("/")
    : url;
}
