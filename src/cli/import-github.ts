import { parseArgs } from "node:util";
import { composeSystem } from "../compose";
import { loadConfig } from "../config";
import { openImport } from "../ingest/github/import/imports";
import { type ImportProgress, runImport } from "../ingest/github/import/run-import";
import { createLogger } from "../lib/logger";
import { progressBar } from "../lib/progress-bar";
import { AGENT_ID_PATTERN } from "../memory/limits";

// `npm run import:github -- owner/repo [--since 2025-01-01] [--agent id]...`
// Imports a repository's history (issues, pull requests, reviews, comments, releases, default-branch
// commits) as observations, the same work `POST /v1/agents/{agentId}/imports/github` queues as a
// job, here in the foreground with a progress bar. Without --agent the observations are routed
// like webhooks (GITHUB_ROUTES, else github:<owner>/<repo>). Interrupted, the same command resumes.
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { since: { type: "string" }, agent: { type: "string", multiple: true } },
});
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-import-github" });
const repo = positionals[0];
const usage = "usage: npm run import:github -- owner/repo [--since 2025-01-01] [--agent id]...";
if (!repo || positionals.length > 1 || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo)) {
  logger.error(usage);
  process.exit(2);
}
if (values.since && Number.isNaN(Date.parse(values.since))) {
  logger.error(`--since ${values.since} is not a date (e.g. 2025-01-01)`);
  process.exit(2);
}
const bad = (values.agent ?? []).find((a) => !AGENT_ID_PATTERN.test(a));
if (bad !== undefined) {
  logger.error(`--agent ${bad} is not a valid agent id`);
  process.exit(2);
}

const system = await composeSystem(config, logger);
const bar = progressBar();
const draw = (p: ImportProgress) =>
  bar.draw(
    `${repo} ${p.phase.padEnd(8)}`,
    p.page,
    p.lastPage,
    `pages · ${p.counts.stored} stored, ${p.counts.duplicates} already there, ${p.counts.ignored} noise`,
  );
try {
  const since = values.since ? new Date(values.since).toISOString() : null;
  const opened = await openImport(system.memory, { repo, agentIds: values.agent ?? [], since });
  if (opened.resumed)
    logger.info("resuming an unfinished import", { id: opened.import.id, phase: opened.import.phase });
  const done = await runImport(system.github, opened.import.id, {
    github: { token: config.github.token, baseUrl: config.github.apiUrl },
    onProgress: draw,
  });
  bar.end();
  logger.info("GitHub import finished", { id: done.id, repo, ...done.counts });
} catch (error) {
  bar.end();
  logger.error("GitHub import stopped; run the same command again to resume where it stopped", {
    error: error instanceof Error ? error.message : String(error),
  });
  process.exitCode = 1;
} finally {
  await system.close();
}
