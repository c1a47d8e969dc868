#!/usr/bin/env node
// `npx memstream-mcp`: the stdio MCP server. Runs the built bundle when there is one
// (`npm run build`), else the TypeScript source through tsx (a dev dependency). Works from any
// working directory (desktop hosts start it anywhere): relative paths such as the default
// embedded database folder are taken from the project root.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const built = join(root, "dist", "cli", "mcp.js");
if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(root, "src", "cli", "mcp.ts")).href);
}
