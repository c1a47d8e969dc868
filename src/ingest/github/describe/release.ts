/**
 * release → "alice published release v1.2.0 "Spring" in acme/api: "notes…"".
 *
 * GitHub sends created, published and released (or prereleased) for one new release; only
 * `published` is kept so a release is remembered once. Deleting a published release is kept;
 * created (drafts), edited, released, prereleased and unpublished are ignored.
 * Bots are kept (release automation is how many projects ship).
 * Importance: a published full release is 7; a pre-release is left to the scorer.
 */
import type { ReleaseEvent } from "@octokit/webhooks-types";
import { baseMetadata, eventTime, ignored, inRepo, observed, quote } from "./common.js";
import type { DescribeResult } from "./types.js";

const MAX_NOTES = 300;

/** Describes a release being published or deleted. */
export function describeRelease(payload: ReleaseEvent): DescribeResult {
  const release = payload.release;
  const actor = payload.sender.login;
  const named = release.name && release.name !== release.tag_name ? ` ${quote(release.name)}` : "";
  const kind = release.prerelease ? "pre-release" : "release";
  const subject = `${kind} ${release.tag_name}${named}${inRepo(payload)}`;
  let description: string;
  if (payload.action === "published") {
    const notes = release.body ? `: ${quote(release.body, MAX_NOTES)}` : "";
    description = `${actor} published ${subject}${notes}`;
  } else if (payload.action === "deleted" && !release.draft) {
    description = `${actor} deleted ${subject}`;
  } else {
    return ignored(`release ${payload.action} is not remembered`);
  }
  const important = payload.action === "published" && !release.prerelease;
  return observed({
    description,
    // A deletion carries no time of its own: use the repository's times, not the release's creation.
    createdAt: payload.action === "published" ? eventTime(payload, release.published_at) : eventTime(payload),
    ...(important ? { importance: 7 } : {}),
    metadata: {
      ...baseMetadata("release", payload),
      url: release.html_url,
      ref: release.tag_name,
      prerelease: release.prerelease,
    },
  });
}
