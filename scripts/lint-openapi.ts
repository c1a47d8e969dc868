/**
 * `npm run lint:openapi`: the server's OpenAPI document through two linters that contract tools
 * and API gateways rely on, Redocly (`recommended`) and Spectral (`spectral:oas`), for both of
 * the documents a server can serve: with API keys (bearer security) and without (zero-config).
 * Fails on any error or warning. Offline: both run from node_modules, telemetry off.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverOpenApiDocument } from "./client-types";

const dir = mkdtempSync(join(tmpdir(), "memstream-openapi-"));
const files = [join(dir, "openapi-zero-config.json"), join(dir, "openapi-with-keys.json")];
writeFileSync(files[0] as string, JSON.stringify(await serverOpenApiDocument({}), null, 2));
writeFileSync(
  files[1] as string,
  JSON.stringify(await serverOpenApiDocument({ MEMSTREAM_API_KEYS: "k" }), null, 2),
);

const env = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_UPDATE_NOTIFIER: "1",
};
const run = (args: string[]) => spawnSync("npx", ["--no-install", ...args], { stdio: "inherit", env }).status;

// Redocly exits 0 on warnings: its JSON report (one per file) is read and every problem counts.
type Problem = { ruleId: string; severity: string; message: string; location: { pointer: string }[] };
let redocly = 0;
for (const file of files) {
  const report = spawnSync("npx", ["--no-install", "redocly", "lint", "--format", "json", file], {
    env,
    encoding: "utf8",
  });
  let problems: Problem[] | undefined;
  try {
    problems = (JSON.parse(report.stdout) as { problems: Problem[] }).problems;
  } catch {
    console.error(report.stdout, report.stderr);
  }
  for (const p of problems ?? []) {
    console.error(`redocly ${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`);
  }
  console.error(`redocly (recommended) ${file}: ${problems?.length ?? "unreadable report,"} problems`);
  if (!problems || problems.length > 0) redocly = 1;
}
const spectral = run([
  "spectral",
  "lint",
  "--ruleset",
  ".spectral.yaml",
  "--fail-severity",
  "warn",
  ...files,
]);
rmSync(dir, { recursive: true, force: true });
if (redocly !== 0 || spectral !== 0) {
  console.error(`openapi lint failed: redocly exit ${redocly}, spectral exit ${spectral}`);
  process.exit(1);
}
console.error("openapi lint: redocly and spectral report 0 errors, 0 warnings");
