/**
 * pull_request_review and pull_request_review_comment.
 *
 * Reviews: submitted (approved, changes requested, commented) and dismissed are kept; edited is ignored.
 * A bot's "commented" review is ignored (linters and AI reviewers flood); bot approvals and change
 * requests are kept because they gate merging.
 * Review comments: created is kept with the file path and an excerpt; edited/deleted are ignored;
 * comments by bots are ignored.
 */
import type { PullRequestReviewCommentEvent, PullRequestReviewEvent } from "@octokit/webhooks-types";
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

/** Describes a submitted or dismissed pull request review. */
export function describeReview(payload: PullRequestReviewEvent): DescribeResult {
  const { review, pull_request: pr } = payload;
  const actor = payload.sender.login;
  const subject = `pull request #${pr.number}${titled(pr.title)}${inRepo(payload)}`;
  const body = review.body ? `: ${quote(review.body, MAX_BODY)}` : "";
  let description: string;
  if (payload.action === "dismissed") {
    description = `${actor} dismissed ${review.user.login}'s review of ${subject}`;
  } else if (payload.action !== "submitted") {
    return ignored(`pull_request_review ${payload.action} is not remembered`);
  } else if (review.state === "approved") {
    description = `${actor} approved ${subject}${body}`;
  } else if (review.state === "changes_requested") {
    description = `${actor} requested changes on ${subject}${body}`;
  } else if (isBot(payload.sender)) {
    return ignored("comment-only review by a bot");
  } else {
    description = `${actor} reviewed ${subject} with comments${body}`;
  }
  return observed({
    description,
    createdAt: eventTime(payload, review.submitted_at, pr.updated_at),
    metadata: {
      ...baseMetadata("pull_request_review", payload),
      number: pr.number,
      url: review.html_url,
      ref: pr.base.ref,
      reviewState: review.state,
    },
  });
}

/** Describes a new comment on a pull request's diff. */
export function describeReviewComment(payload: PullRequestReviewCommentEvent): DescribeResult {
  if (payload.action !== "created")
    return ignored(`pull_request_review_comment ${payload.action} is not remembered`);
  if (isBot(payload.comment.user) || isBot(payload.sender)) return ignored("review comment by a bot");
  if (!hasText(payload.comment.body)) return ignored("review comment without text");
  const { comment, pull_request: pr } = payload;
  const subject = `pull request #${pr.number}${titled(pr.title)}${inRepo(payload)}`;
  return observed({
    description: `${comment.user.login} commented on ${subject} at ${comment.path}: ${quote(comment.body, MAX_BODY)}`,
    createdAt: eventTime(payload, comment.created_at),
    metadata: {
      ...baseMetadata("pull_request_review_comment", payload),
      actor: comment.user.login,
      number: pr.number,
      url: comment.html_url,
      ref: pr.base.ref,
      path: comment.path,
    },
  });
}
