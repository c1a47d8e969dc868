/** Helpers shared by the per-event describers: actors, times, quoting, result builders. */
import type { DescribeResult, GithubMetadata, GithubObservation } from "./types.js";

/** The fields most payloads share; each describer narrows further with @octokit/webhooks-types. */
export type BasePayload = {
  action?: string;
  sender?: { login: string; type?: string } | null;
  repository?: {
    full_name: string;
    default_branch?: string;
    pushed_at?: string | number | null;
    updated_at?: string | number | null;
  } | null;
};

/** A user as payloads carry it. */
export type Actor = { login: string; type?: string } | null | undefined;

/** True for GitHub Apps and bot accounts (`type: "Bot"` or a login ending in `[bot]`). */
export function isBot(user: Actor): boolean {
  return !!user && (user.type === "Bot" || user.login.endsWith("[bot]"));
}

/** ISO string for a payload time: ISO strings, or unix seconds (push payloads use them). */
export function toIso(value: unknown): string | null {
  let ms: number;
  if (typeof value === "number") ms = value * 1000;
  else if (typeof value === "string" && value !== "") ms = Date.parse(value);
  else return null;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** First valid time among `candidates`, then the repository's push/update time, else null. */
export function eventTime(payload: BasePayload, ...candidates: unknown[]): string | null {
  const repo = payload.repository;
  for (const value of [...candidates, repo?.pushed_at, repo?.updated_at]) {
    const iso = toIso(value);
    if (iso) return iso;
  }
  return null;
}

/** Whitespace collapsed and cut to `max` characters (with an ellipsis). */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** `"text"`, clipped; used for titles, messages and comment bodies. */
export function quote(text: string, max = 200): string {
  return `"${clip(text, max)}"`;
}

/** True for a string with something besides whitespace (payloads send null or "" for no text). */
export function hasText(text: unknown): text is string {
  return typeof text === "string" && text.trim() !== "";
}

/** ` "title"` after a subject such as `issue #7`, or nothing when the title is null or blank. */
export function titled(title: unknown, max = 200): string {
  return hasText(title) ? ` ${quote(title, max)}` : "";
}

/** ` in owner/repo`, or nothing for events without a repository. */
export function inRepo(payload: BasePayload): string {
  return payload.repository ? ` in ${payload.repository.full_name}` : "";
}

/** `refs/heads/main` → `main`, `refs/tags/v1` → `v1`. */
export function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}

/** Base metadata of every observation of this event. */
export function baseMetadata(event: string, payload: BasePayload): GithubMetadata {
  const meta: GithubMetadata = { source: "github", event };
  if (payload.action) meta.action = payload.action;
  if (payload.repository) meta.repository = payload.repository.full_name;
  if (payload.sender) meta.actor = payload.sender.login;
  return meta;
}

/** A result with a single observation. */
export function observed(observation: GithubObservation): DescribeResult {
  return { status: "observations", observations: [observation] };
}

/** A result that records the event as deliberately not remembered. */
export function ignored(reason: string): DescribeResult {
  return { status: "ignored", reason };
}

/** `1 commit`, `3 commits`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
