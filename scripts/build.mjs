// `npm run build`: bundles the production entry points into dist/ with esbuild, so production runs
// `node dist/server.js` (and dist/worker.js, dist/cli/*.js) without tsx and without installing
// anything at start. Dependencies stay external (node_modules, installed by `npm ci --omit=dev`);
// files read at run time (migrations/, prompt templates under src/) are found from the project
// root (src/lib/paths.ts), so the image keeps them at the same paths. Every `*.worker.ts` is an
// entry point too: a worker thread starts from its own file (src/lib/worker-pool/entry.ts).
import { readdirSync, rmSync } from "node:fs";
import { build } from "esbuild";

const cli = readdirSync("src/cli")
  .filter((f) => f.endsWith(".ts"))
  .map((f) => `src/cli/${f}`);
const workers = readdirSync("src", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".worker.ts"))
  .map((f) => `src/${f}`);
const entryPoints = ["src/server.ts", "src/worker.ts", ...cli, ...workers];

rmSync("dist", { recursive: true, force: true });
const result = await build({
  entryPoints,
  outdir: "dist",
  outbase: "src",
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith(".js") && !f.includes("/chunks/"));
console.error(`build: ${outputs.length} entry points in dist/ (${outputs.join(", ")})`);
