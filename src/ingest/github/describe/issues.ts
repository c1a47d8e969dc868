/**
 * issues and issue_comment.
 *
 * Issues: opened (with labels and a body excerpt), closed (with the reason), reopened and assigned
 * are kept; labeled, edited, milestoned, pinned, locked, transferred, deleted and the like are ignored.
 * Issues by bots are kept (e.g. a monitoring bot filing an incident); comments by bots are ignored.
 * Comments: created is kept with an excerpt; edited/deleted and comments without text are ignored.
 * A null or blank title is left out of the description (`issue #7 in acme/api`).
 */
import type { IssueCommentEvent, IssuesEvent } from "@octokit/webhooks-types";
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

/** Describes an issue being opened, closed, reopened or assigned. */
export function describeIssue(payload: IssuesEvent): DescribeResult {
  const issue = payload.issue;
  const actor = payload.sender.login;
  const subject = `issue #${issue.number}${titled(issue.title)}${inRepo(payload)}`;
  let description: string;
  let time: unknown = issue.updated_at;
  switch (payload.action) {
    case "opened": {
      const labels = (issue.labels ?? []).map((l) => l.name);
      const labelText = labels.length > 0 ? ` (labels: ${labels.join(", ")})` : "";
      const body = issue.body ? `: ${quote(issue.body, MAX_BODY)}` : "";
      description = `${actor} opened ${subject}${labelText}${body}`;
      time = issue.created_at;
      break;
    }
    case "closed": {
      const reason = issue.state_reason === "not_planned" ? " as not planned" : " as completed";
      description = `${actor} closed ${subject}${reason}`;
      time = issue.closed_at;
      break;
    }
    case "reopened":
      description = `${actor} reopened ${subject}`;
      break;
    case "assigned":
      description = payload.assignee
        ? `${actor} assigned ${payload.assignee.login} to ${subject}`
        : `${actor} assigned ${subject}`;
      break;
    default:
      return ignored(`issues ${payload.action} is not remembered`);
  }
  return observed({
    description,
    createdAt: eventTime(payload, time, issue.updated_at),
    metadata: {
      ...baseMetadata("issues", payload),
      number: issue.number,
      url: issue.html_url,
      title: issue.title,
    },
  });
}

/** Describes a new comment on an issue or pull request conversation. */
export function describeIssueComment(payload: IssueCommentEvent): DescribeResult {
  if (payload.action !== "created") return ignored(`issue_comment ${payload.action} is not remembered`);
  const { comment, issue } = payload;
  if (isBot(comment.user) || isBot(payload.sender)) return ignored("comment by a bot");
  if (!hasText(comment.body)) return ignored("comment without text");
  const kind = issue.pull_request ? "pull request" : "issue";
  return observed({
    description: `${comment.user.login} commented on ${kind} #${issue.number}${titled(issue.title)}${inRepo(payload)}: ${quote(comment.body, MAX_BODY)}`,
    createdAt: eventTime(payload, comment.created_at),
    metadata: {
      ...baseMetadata("issue_comment", payload),
      actor: comment.user.login,
      number: issue.number,
      url: comment.html_url,
      onPullRequest: !!issue.pull_request,
    },
  });
}
