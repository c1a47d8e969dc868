#!/usr/bin/env node
// `npx memstream-mcp`: the stdio MCP server. Desktop hosts give a server a few seconds to list its
// tools, so it always runs built JavaScript, never the TypeScript source through a compiler:
// - dist/cli/mcp.js when it is at least as new as src/ (`npm run build`, the production image);
// - else a bundle of src/cli/mcp.ts built here with esbuild (~0.2 s) into .memstream/mcp/<stamp>/
//   and reused until a file under src/ changes (the stamp is the newest mtime under src/).
// Worker threads (src/lib/worker-pool: token counts of large texts for `recall`, the offline
// embedder) start from their own files: every src/**/*.worker.ts is an entry point of the bundle
// too, and the bundle tells src/lib/worker-pool/entry.ts where it lives.
// Works from any working directory (hosts start it anywhere): relative paths such as the default
// embedded database folder are taken from the project root.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

/** The newest modification time of any file under `dir`, in ms. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds src/cli/mcp.ts unless this source's bundle exists; returns its entry file. */
async function bundle(stamp) {
  const cache = join(root, ".memstream", "mcp");
  const target = join(cache, stamp);
  const entry = join(target, "cli", "mcp.js");
  if (existsSync(entry)) return entry;
  const { build } = await import("esbuild");
  // Built aside and renamed into place, so two hosts starting it at once never see half a bundle.
  const scratch = join(cache, `.build-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  await build({
    entryPoints: [
      join(root, "src", "cli", "mcp.ts"),
      ...readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".worker.ts"))
        .map((f) => join(root, "src", f)),
    ],
    // Where the bundle will be once renamed into place (worker threads are found from it).
    define: { __MEMSTREAM_BUNDLE_DIR__: JSON.stringify(target) },
    outdir: scratch,
    outbase: join(root, "src"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  try {
    renameSync(scratch, target);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another launch won the race: same bundle
  }
  for (const old of readdirSync(cache)) {
    if (old !== stamp && !old.startsWith(".build-")) rmSync(join(cache, old), { recursive: true, force: true });
  }
  return entry;
}

const built = join(root, "dist", "cli", "mcp.js");
const sourceTime = existsSync(join(root, "src")) ? newestMtime(join(root, "src")) : 0;
let entry = built;
if (!existsSync(built) || statSync(built).mtimeMs < sourceTime) {
  try {
    entry = await bundle(String(Math.floor(sourceTime)));
  } catch (err) {
    if (!existsSync(built)) {
      console.error(`memstream-mcp: cannot build src/cli/mcp.ts (${err.message}); run \`npm run build\`.`);
      process.exit(1);
    }
  }
}
await import(pathToFileURL(entry).href);
