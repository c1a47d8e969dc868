import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const IMPORT_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Counts of an import so far; see src/ingest/github/import/. */
export type ImportCounts = {
  /** REST objects read (issues, pull requests, reviews, releases, commits). */
  fetched: number;
  /** Observations stored (per agent). */
  stored: number;
  /** Events already in the stream (an earlier run or a webhook). */
  duplicates: number;
  /** Events the noise rules leave out. */
  ignored: number;
  /** Requests GitHub answered with a rate limit (then waited out). */
  rateLimited: number;
};

/**
 * One row per repository import: its parameters and how far it got. `phase` and `cursor` (the
 * next page's URL) are written in the same transaction as each page's observations, so a crashed
 * import resumes at the first page it had not finished.
 */
export const githubImports = pgTable(
  "github_imports",
  {
    id: text("id").primaryKey(),
    /** `owner/name`. */
    repo: text("repo").notNull(),
    /** Streams it writes to; empty = routed like webhooks (GITHUB_ROUTES, default github:<owner>/<repo>). */
    agentIds: text("agent_ids").array().notNull(),
    since: timestamp("since", { withTimezone: true, mode: "date" }),
    /** queued → running → succeeded | failed (failed → running again on a retry or resume) */
    status: text("status").$type<ImportStatus>().notNull().default("queued"),
    phase: text("phase"),
    cursor: text("cursor"),
    counts: jsonb("counts").$type<ImportCounts>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    /** The highest erase position (`agent_erasures.seq`) committed when it was created: agents erased after it get nothing from it. */
    erasureHorizon: bigint("erasure_horizon", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("github_imports_repo_idx").on(t.repo, t.createdAt.desc()),
    check("github_imports_status_check", sql`${t.status} IN ('queued', 'running', 'succeeded', 'failed')`),
  ],
);

export type GithubImportRow = typeof githubImports.$inferSelect;
