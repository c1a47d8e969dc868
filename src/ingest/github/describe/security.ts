/**
 * security_advisory, dependabot_alert, code_scanning_alert: the events that say "this matters".
 *
 * Kept: advisory published (importance 9), dependabot alert created/reopened, code scanning alert
 * created/reopened (importance 9 when critical or high, else 7; code scanning only for security rules), and their fixes/dismissals without
 * importance. Advisory updates and withdrawals and alert auto-dismissals are ignored.
 * Bots are kept: GitHub itself is usually the sender.
 */
import type {
  CodeScanningAlertEvent,
  DependabotAlertEvent,
  SecurityAdvisoryEvent,
} from "@octokit/webhooks-types";
import { baseMetadata, eventTime, ignored, inRepo, observed, titled } from "./common.js";
import type { DescribeResult } from "./types.js";

const SEVERE = new Set(["critical", "high"]);

function severityImportance(severity: string | null | undefined): number {
  return severity && SEVERE.has(severity.toLowerCase()) ? 9 : 7;
}

/** Describes a global GitHub security advisory being published. */
export function describeSecurityAdvisory(payload: SecurityAdvisoryEvent): DescribeResult {
  if (payload.action !== "published") return ignored(`security_advisory ${payload.action} is not remembered`);
  const a = payload.security_advisory;
  const packages = [...new Set(a.vulnerabilities.map((v) => `${v.package.ecosystem}/${v.package.name}`))];
  return observed({
    description: `GitHub published security advisory ${a.ghsa_id} (${a.severity} severity)${titled(a.summary)} affecting ${packages.join(", ")}`,
    createdAt: eventTime(payload, a.published_at, a.updated_at),
    importance: 9,
    metadata: {
      ...baseMetadata("security_advisory", payload),
      ghsaId: a.ghsa_id,
      severity: a.severity,
      packages,
    },
  });
}

const ALERT_VERBS: Record<string, string> = {
  created: "opened",
  reopened: "reopened",
  reopened_by_user: "reopened",
  fixed: "marked fixed",
  dismissed: "dismissed",
  closed_by_user: "dismissed",
};

/** Describes a Dependabot alert on a repository's dependency. */
export function describeDependabotAlert(payload: DependabotAlertEvent): DescribeResult {
  const verb = ALERT_VERBS[payload.action];
  if (!verb) return ignored(`dependabot_alert ${payload.action} is not remembered`);
  const { alert } = payload;
  const adv = alert.security_advisory;
  const opening = payload.action === "created" || payload.action === "reopened";
  return observed({
    description: `Dependabot alert #${alert.number} ${verb}${inRepo(payload)}: ${adv.severity} severity${titled(adv.summary)} in ${alert.dependency.package.ecosystem} package ${alert.dependency.package.name}`,
    createdAt: eventTime(payload, opening ? alert.created_at : alert.updated_at, alert.updated_at),
    ...(opening ? { importance: severityImportance(adv.severity) } : {}),
    metadata: {
      ...baseMetadata("dependabot_alert", payload),
      number: alert.number,
      url: alert.html_url,
      severity: adv.severity,
    },
  });
}

/** Describes a code scanning alert (CodeQL or another tool). */
export function describeCodeScanningAlert(payload: CodeScanningAlertEvent): DescribeResult {
  const verb = ALERT_VERBS[payload.action];
  if (!verb) return ignored(`code_scanning_alert ${payload.action} is not remembered`);
  const { alert } = payload;
  // GitHub sends `security_severity_level` (low..critical) for security rules; the types lack it.
  const securityLevel = (alert.rule as { security_severity_level?: string | null }).security_severity_level;
  const severity = securityLevel ?? alert.rule.severity ?? "unknown";
  const opening = payload.action === "created" || payload.action.startsWith("reopened");
  return observed({
    description: `${alert.tool.name} code scanning alert #${alert.number} ${verb}${inRepo(payload)}: ${severity} severity${titled(alert.rule.description)}`,
    createdAt: eventTime(payload, opening ? alert.created_at : null, alert.created_at),
    // Only security rules carry a security severity; style and quality alerts are left to the scorer.
    ...(opening && securityLevel ? { importance: severityImportance(securityLevel) } : {}),
    metadata: {
      ...baseMetadata("code_scanning_alert", payload),
      number: alert.number,
      url: alert.html_url,
      severity,
    },
  });
}
