/**
 * discussion and discussion_comment → "alice started discussion #90 "Welcome" in General in acme/api".
 *
 * Kept: created, answered, closed, reopened, and new comments (not by bots).
 * Ignored: edited, labeled, pinned, locked, category_changed, transferred, unanswered, deleted and
 * comment edits/deletions.
 */
import type { DiscussionCommentEvent, DiscussionEvent } from "@octokit/webhooks-types";
import {
  baseMetadata,
  eventTime,
  hasText,
  ignored,
  inRepo,
  isBot,
  observed,
  quote,
  titled,
} from "./common.js";
import type { DescribeResult } from "./types.js";

const MAX_BODY = 300;

/** Describes a discussion being started, answered, closed or reopened. */
export function describeDiscussion(payload: DiscussionEvent): DescribeResult {
  const d = payload.discussion;
  const actor = payload.sender.login;
  const subject = `discussion #${d.number}${titled(d.title)}${inRepo(payload)}`;
  const metadata = {
    ...baseMetadata("discussion", payload),
    number: d.number,
    url: d.html_url,
    title: d.title,
  };
  let description: string;
  let time: unknown = d.updated_at;
  // GitHub sends closed/reopened since 2022; @octokit/webhooks-types 7 does not list them yet.
  const action: string = payload.action;
  if (action === "closed" || action === "reopened") {
    return observed({
      description: `${actor} ${action} ${subject}`,
      createdAt: eventTime(payload, d.updated_at),
      metadata,
    });
  }
  switch (payload.action) {
    case "created": {
      const body = d.body ? `: ${quote(d.body, MAX_BODY)}` : "";
      description = `${actor} started discussion #${d.number}${titled(d.title)} in category ${d.category.name}${inRepo(payload)}${body}`;
      time = d.created_at;
      break;
    }
    case "answered":
      description = `${actor} marked ${payload.answer.user.login}'s comment as the answer to ${subject}${hasText(payload.answer.body) ? `: ${quote(payload.answer.body, MAX_BODY)}` : ""}`;
      time = d.answer_chosen_at;
      break;
    default:
      return ignored(`discussion ${payload.action} is not remembered`);
  }
  return observed({
    description,
    createdAt: eventTime(payload, time, d.updated_at),
    metadata,
  });
}

/** Describes a new comment in a discussion. */
export function describeDiscussionComment(payload: DiscussionCommentEvent): DescribeResult {
  if (payload.action !== "created") return ignored(`discussion_comment ${payload.action} is not remembered`);
  const { comment, discussion: d } = payload;
  if (isBot(comment.user) || isBot(payload.sender)) return ignored("discussion comment by a bot");
  if (!hasText(comment.body)) return ignored("discussion comment without text");
  return observed({
    description: `${comment.user.login} commented on discussion #${d.number}${titled(d.title)}${inRepo(payload)}: ${quote(comment.body, MAX_BODY)}`,
    createdAt: eventTime(payload, comment.created_at),
    metadata: {
      ...baseMetadata("discussion_comment", payload),
      actor: comment.user.login,
      number: d.number,
      url: comment.html_url,
    },
  });
}
