// Runs before `npm start` / `npm test` / `npm run dev` / `npm run worker`: installs dependencies on a
// fresh clone (or when package-lock.json changed), so the README's one command works with only Node
// installed, and applies our patches to dependencies (scripts/patches/).
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const marker = "node_modules/.package-lock.json";
const stale = !existsSync(marker) || statSync("package-lock.json").mtimeMs > statSync(marker).mtimeMs;
if (stale) {
  console.error("memstream: installing dependencies (npm ci)…");
  execSync("npm ci --no-audit --no-fund", { stdio: "inherit" });
}
// Also here, not only in postinstall: node_modules installed with --ignore-scripts need it too.
await import("./patches/postgres-closed-socket.mjs");
