import { describe, expect, it } from "vitest";
import { parseRoutes, routeAgents } from "../../../src/ingest/github/route-agents.js";

const apiPayload = {
  repository: { full_name: "acme/api", owner: { login: "acme" } },
  organization: { login: "acme" },
  installation: { id: 12345 },
};

describe("parseRoutes", () => {
  it("parses repo, org and installation rules with several agents", () => {
    expect(
      parseRoutes(" repo:acme/api=agent-a,agent-b; org:Acme=github:acme; installation:12345=agent-c ;"),
    ).toEqual([
      { kind: "repo", key: "acme/api", agents: ["agent-a", "agent-b"] },
      { kind: "org", key: "acme", agents: ["github:acme"] },
      { kind: "installation", key: "12345", agents: ["agent-c"] },
    ]);
  });

  it("treats a missing or empty spec as no rules", () => {
    expect(parseRoutes(undefined)).toEqual([]);
    expect(parseRoutes("")).toEqual([]);
    expect(parseRoutes(" ; ")).toEqual([]);
  });

  it.each([
    ["acme/api=agent-a", /must look like/],
    ["team:acme=agent-a", /unknown kind "team"/],
    ["repo:acme=agent-a", /"acme" is not a valid repo/],
    ["installation:abc=agent-a", /not a valid installation/],
    ["repo:acme/api=", /"" is not a valid agent id/],
    ["repo:acme/api=agent a", /"agent a" is not a valid agent id/],
    ["org:acme=-agent", /"-agent" is not a valid agent id/],
    ["org:acme=a,,b", /"" is not a valid agent id/],
  ])("rejects %s with a clear error", (spec, message) => {
    expect(() => parseRoutes(spec)).toThrow(message);
  });
});

describe("routeAgents", () => {
  it("sends to every agent of every matching rule, deduplicated, in rule order", () => {
    const rules = parseRoutes(
      "repo:ACME/API=agent-a,agent-b; org:acme=agent-b,org-agent; installation:12345=agent-c",
    );
    expect(routeAgents(rules, apiPayload)).toEqual(["agent-a", "agent-b", "org-agent", "agent-c"]);
  });

  it("matches an org by the repository owner or by organization.login", () => {
    const rules = parseRoutes("org:acme=org-agent");
    expect(routeAgents(rules, { repository: { full_name: "acme/web", owner: { login: "acme" } } })).toEqual([
      "org-agent",
    ]);
    expect(routeAgents(rules, { organization: { login: "ACME" } })).toEqual(["org-agent"]);
  });

  it("falls back to github:<owner>/<repo> when no rule matches", () => {
    const rules = parseRoutes("repo:other/repo=agent-a; installation:999=agent-c");
    expect(routeAgents(rules, apiPayload)).toEqual(["github:acme/api"]);
    expect(routeAgents([], { repository: { full_name: "Codertocat/Hello-World" } })).toEqual([
      "github:Codertocat/Hello-World",
    ]);
  });

  it("falls back to github:<org> without a repository, and to nothing without either", () => {
    expect(routeAgents([], { organization: { login: "octo-org" } })).toEqual(["github:octo-org"]);
    expect(routeAgents([], { security_advisory: { ghsa_id: "GHSA-x" } })).toEqual([]);
    expect(routeAgents([], null)).toEqual([]);
  });

  it("routes repository-less events by installation", () => {
    const rules = parseRoutes("installation:12345=agent-c");
    expect(routeAgents(rules, { installation: { id: 12345 } })).toEqual(["agent-c"]);
  });
});
