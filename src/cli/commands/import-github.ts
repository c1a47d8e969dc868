import { progressBar } from "../../lib/progress-bar";
import { AGENT_ID_PATTERN } from "../../memory/limits";
import { type Command, EXIT, EXIT_HELP, str, strs, UsageError } from "../kit/io";

/**
 * `memstream import-github owner/repo` (also `npm run import:github -- …`): a repository's history
 * (issues, pull requests, reviews, comments, releases, default-branch commits) as observations, the
 * same work `POST /v1/agents/{agentId}/imports/github` queues as a job, here in the foreground with
 * a progress bar. Interrupted, the same command resumes.
 */
export const command: Command = {
  options: { since: { type: "string" }, agent: { type: "string", multiple: true } },
  usage: `usage: memstream import-github owner/repo [--since 2025-01-01] [--agent ID]...

Imports a GitHub repository's history (issues, pull requests, reviews, comments, releases,
default-branch commits) as observations, in this process with a progress bar, opening the database
directly (DATABASE_URL or the embedded folder; to have a running server do it, POST
/v1/agents/{agentId}/imports/github). Interrupted, the same command resumes where it stopped.
GITHUB_TOKEN raises GitHub's rate limit; GITHUB_API_URL points at GitHub Enterprise.

options:
  --since DATE      only what happened since DATE (e.g. 2025-01-01)
  --agent ID        store into this agent (repeatable); without it observations are routed like
                    webhooks (GITHUB_ROUTES, else github:<owner>/<repo>)
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args, io) {
    const repo = args.positionals[0];
    if (!repo) throw new UsageError("needs a repository, owner/repo");
    if (args.positionals.length > 1) throw new UsageError(`unexpected argument ${args.positionals[1]}`);
    if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo))
      throw new UsageError(`${repo} is not a repository; give it as owner/repo`);
    const since = str(args, "since");
    if (since && Number.isNaN(Date.parse(since)))
      throw new UsageError(`--since ${since} is not a date (e.g. 2025-01-01)`);
    const agents = strs(args, "agent");
    const bad = agents.find((a) => !AGENT_ID_PATTERN.test(a));
    if (bad !== undefined) throw new UsageError(`--agent ${bad} is not a valid agent id`);

    const [{ loadConfig }, { createLogger }, { composeSystem }, { openImport }, { runImport }] =
      await Promise.all([
        import("../../config"),
        import("../../lib/logger"),
        import("../../compose"),
        import("../../ingest/github/import/imports"),
        import("../../ingest/github/import/run-import"),
      ]);
    const config = loadConfig(io.env);
    const logger = createLogger(config.logLevel, { service: "memstream-import-github" });
    const system = await composeSystem(config, logger, { role: "memstream import-github" });
    const bar = progressBar(io.stderr);
    try {
      const opened = await openImport(system.services, {
        repo,
        agentIds: agents,
        since: since ? new Date(since).toISOString() : null,
      });
      if (opened.resumed)
        logger.info("resuming an unfinished import", { id: opened.import.id, phase: opened.import.phase });
      const done = await runImport(system.services, opened.import.id, {
        github: { token: config.github.token, baseUrl: config.github.apiUrl },
        onProgress: (p) =>
          bar.draw(
            `${repo} ${p.phase.padEnd(8)}`,
            p.page,
            p.lastPage,
            `pages · ${p.counts.stored} stored, ${p.counts.duplicates} already there, ${p.counts.ignored} noise`,
          ),
      });
      bar.end();
      logger.info("GitHub import finished", { id: done.id, repo, ...done.counts });
      return EXIT.ok;
    } catch (error) {
      bar.end();
      logger.error("GitHub import stopped; run the same command again to resume where it stopped", {
        error: error instanceof Error ? error.message : String(error),
      });
      return EXIT.failed;
    } finally {
      await system.close();
    }
  },
};
