#!/usr/bin/env node
// `memstream <command>` (`memstream --help`): runs dist/cli/memstream.js when it is at least as new
// as src/ (`npm run build`, the production image), else src/cli/memstream.ts through tsx.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The newest modification time of any file under `dir`, in ms. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

const built = join(root, "dist", "cli", "memstream.js");
const source = join(root, "src", "cli", "memstream.ts");
if (existsSync(built) && (!existsSync(source) || statSync(built).mtimeMs >= newestMtime(join(root, "src")))) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(source).href);
}
