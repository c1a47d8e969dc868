import { UnrecoverableError } from "bullmq";
import { getImport } from "../../ingest/github/import/imports";
import { runImport } from "../../ingest/github/import/run-import";
import { NotFound } from "../../lib/errors";
import type { Processor } from "./types";

/**
 * `github.import`: runs or resumes a repository import (`runImport`). Each page and the import's
 * cursor commit together, so an attempt after a crash (BullMQ hands a dead worker's job to the
 * next one; the sweep re-announces an import whose job was lost) starts at the first page not
 * committed, and event keys make any overlap store nothing twice. A failed attempt leaves the
 * import `failed` with the reason and throws, so the queue backs off and retries; after the last
 * attempt it stays `failed` until POSTed again. An import that does not exist, or does not write
 * to the job's agent, never retries.
 */
export const importGithub: Processor<"github.import"> = async ({ importId, agentId }, ctx) => {
  try {
    const row = await getImport(ctx, importId);
    if (!row.agentIds.includes(agentId)) {
      throw new UnrecoverableError(`GitHub import ${importId} does not write to agent ${agentId}`);
    }
    const done = await runImport(ctx, importId, { github: ctx.githubApi });
    return { status: done.status, stored: done.counts.stored, duplicates: done.counts.duplicates };
  } catch (error) {
    if (error instanceof NotFound) throw new UnrecoverableError(error.message);
    throw error;
  }
};
