/**
 * push → "alice pushed 3 commits to main in acme/api: "msg1"; "msg2"; "msg3"".
 *
 * Noise rules:
 * - branch/tag deletions are ignored here: the `delete` event records them once;
 * - tag pushes are ignored: the `create` event records the tag;
 * - pushes by bots are ignored unless they land on the default branch (bot branches such as
 *   dependabot's are a flood, and their pull requests are recorded anyway);
 * - a push with no new commits is ignored, unless it was forced (a history rewrite is worth knowing).
 * Commits: the first line of each message, at most 5 listed, each cut to 120 characters.
 * Time: `repository.pushed_at` (in push payloads, the unix time of this push), then the head commit's
 * timestamp (which can be much older than the push after a rebase).
 * Importance: a force-push to the default branch is 7.
 */
import type { PushEvent } from "@octokit/webhooks-types";
import {
  baseMetadata,
  eventTime,
  hasText,
  ignored,
  inRepo,
  isBot,
  observed,
  plural,
  quote,
  shortRef,
} from "./common.js";
import type { DescribeResult } from "./types.js";

const MAX_LISTED = 5;
const MAX_MESSAGE = 120;

/** Describes a push of commits to a branch. */
export function describePush(payload: PushEvent): DescribeResult {
  if (payload.deleted) return ignored("branch or tag deletion: recorded from the delete event");
  if (payload.ref.startsWith("refs/tags/")) return ignored("tag push: recorded from the create event");
  const branch = shortRef(payload.ref);
  const isDefault = branch === payload.repository.default_branch;
  if (isBot(payload.sender) && !isDefault) return ignored("push by a bot to a non-default branch");
  const commits = payload.commits;
  if (commits.length === 0 && !payload.forced) return ignored("push with no new commits");

  const actor = payload.sender?.login ?? payload.pusher.name;
  const verb = payload.forced ? "force-pushed" : "pushed";
  const target = `${payload.created ? "new branch " : ""}${branch}${inRepo(payload)}`;
  let description: string;
  if (commits.length === 0) {
    description = `${actor} force-pushed ${target}, rewriting its history`;
  } else {
    const listed = commits
      .slice(0, MAX_LISTED)
      .map((c) => (hasText(c.message) ? quote(c.message.split("\n")[0] ?? "", MAX_MESSAGE) : "(no message)"));
    const more = commits.length > MAX_LISTED ? `; and ${commits.length - MAX_LISTED} more` : "";
    description = `${actor} ${verb} ${plural(commits.length, "commit")} to ${target}: ${listed.join("; ")}${more}`;
  }

  return observed({
    description,
    createdAt: eventTime(payload, payload.repository.pushed_at, payload.head_commit?.timestamp),
    ...(payload.forced && isDefault ? { importance: 7 } : {}),
    metadata: {
      ...baseMetadata("push", payload),
      actor,
      ref: branch,
      url: payload.compare,
      commits: commits.length,
      forced: payload.forced,
      after: payload.after,
    },
  });
}
