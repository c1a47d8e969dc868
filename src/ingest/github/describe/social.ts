/**
 * star, fork and watch → "alice starred acme/api (42 stars)", "bob forked acme/api to bob/api".
 *
 * Unstarring is ignored. `watch started` is what GitHub sends when someone stars a repository,
 * alongside `star created`, so watch is always ignored to avoid remembering a star twice.
 */
import type { ForkEvent, StarEvent } from "@octokit/webhooks-types";
import { baseMetadata, eventTime, ignored, observed, plural } from "./common.js";
import type { DescribeResult } from "./types.js";

/** Describes a repository being starred. */
export function describeStar(payload: StarEvent): DescribeResult {
  if (payload.action !== "created") return ignored(`star ${payload.action} is not remembered`);
  const repo = payload.repository;
  return observed({
    description: `${payload.sender.login} starred ${repo.full_name} (${plural(repo.stargazers_count, "star")} now)`,
    createdAt: eventTime(payload, payload.starred_at),
    metadata: { ...baseMetadata("star", payload), url: repo.html_url, stars: repo.stargazers_count },
  });
}

/** Describes a repository being forked. */
export function describeFork(payload: ForkEvent): DescribeResult {
  const fork = payload.forkee;
  return observed({
    description: `${payload.sender.login} forked ${payload.repository.full_name} to ${fork.full_name}`,
    createdAt: eventTime(payload, fork.created_at),
    metadata: { ...baseMetadata("fork", payload), url: fork.html_url, fork: fork.full_name },
  });
}
