/**
 * create and delete of branches and tags → "alice created branch feature-x in acme/api".
 *
 * Branches created or deleted by bots are ignored (dependabot and friends open and drop one per
 * update; their pull requests are recorded). Tags by bots are kept: they usually mark releases.
 * Time: these payloads carry no event time, so `repository.pushed_at` (the push that made the ref)
 * is used, then `repository.updated_at`.
 */
import type { CreateEvent, DeleteEvent } from "@octokit/webhooks-types";
import { baseMetadata, eventTime, ignored, inRepo, isBot, observed } from "./common.js";
import type { DescribeResult } from "./types.js";

/** Describes a branch or tag being created or deleted. */
export function describeRef(event: "create" | "delete", payload: CreateEvent | DeleteEvent): DescribeResult {
  if (payload.ref_type === "branch" && isBot(payload.sender)) return ignored(`branch ${event} by a bot`);
  const verb = event === "create" ? "created" : "deleted";
  return observed({
    description: `${payload.sender.login} ${verb} ${payload.ref_type} ${payload.ref}${inRepo(payload)}`,
    createdAt: eventTime(payload),
    metadata: { ...baseMetadata(event, payload), ref: payload.ref, refType: payload.ref_type },
  });
}
