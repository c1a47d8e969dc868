import { createHmac } from "node:crypto";
import examples from "@octokit/webhooks-examples";
import { describe, expect, it } from "vitest";
import { describeEvent, MAX_DESCRIPTION } from "../../../src/ingest/github/describe/index.js";
import { eventKeys } from "../../../src/ingest/github/event-keys.js";
import { verifySignature } from "../../../src/ingest/github/signature.js";

const SECRET = "examples-secret";

/** Every example payload GitHub documents, as the raw body and header a delivery would carry. */
const deliveries = examples.flatMap((definition) =>
  definition.examples.map((example, i) => {
    const body = JSON.stringify(example);
    const signature = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
    return { name: `${definition.name}[${i}]`, event: definition.name, body, signature };
  }),
);

describe("every @octokit/webhooks-examples payload", () => {
  it("is a sizeable set", () => {
    expect(deliveries.length).toBeGreaterThan(300);
  });

  it.each(deliveries)("$name is verified and described or ignored", ({ event, body, signature }) => {
    expect(verifySignature(body, signature, ["rotated-out", SECRET])).toBe(true);
    const result = describeEvent(event, JSON.parse(body));
    if (result.status === "ignored") {
      expect(result.reason.length).toBeGreaterThan(0);
      return;
    }
    expect(result.observations.length).toBeGreaterThan(0);
    for (const o of result.observations) {
      expect(o.description.trim().length).toBeGreaterThan(0);
      expect(o.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
      if (o.createdAt !== null) expect(new Date(o.createdAt).toISOString()).toBe(o.createdAt);
      expect(o.metadata.source).toBe("github");
      expect(o.metadata.event).toBe(event);
      if (o.importance !== undefined) expect(o.importance).toBeGreaterThanOrEqual(1);
      if (o.importance !== undefined) expect(o.importance).toBeLessThanOrEqual(10);
    }
  });

  it("covers the main events with at least one observation each", () => {
    const described = new Set(
      deliveries
        .filter((d) => describeEvent(d.event, JSON.parse(d.body)).status === "observations")
        .map((d) => d.event),
    );
    for (const event of [
      "push",
      "pull_request",
      "pull_request_review",
      "issues",
      "issue_comment",
      "release",
    ]) {
      expect(described).toContain(event);
    }
    for (const event of ["create", "delete", "discussion", "star", "fork", "security_advisory"]) {
      expect(described).toContain(event);
    }
  });
});

describe("describeEvent on unusual input", () => {
  it("ignores uncovered events, with the reason", () => {
    expect(describeEvent("gollum", { pages: [] })).toEqual({
      status: "ignored",
      reason: "event gollum is not covered",
    });
  });

  it("ignores payloads that are not objects or lack the event's main object", () => {
    expect(describeEvent("pull_request", "nope")).toEqual({
      status: "ignored",
      reason: "pull_request payload is not an object",
    });
    expect(describeEvent("issues", { action: "opened" })).toEqual({
      status: "ignored",
      reason: "issues payload has no issue",
    });
  });

  it("records a payload missing a field it reads as malformed, not as an error", () => {
    const result = describeEvent("pull_request", { action: "opened", pull_request: {} });
    expect(result.status).toBe("ignored");
    if (result.status === "ignored") expect(result.reason).toMatch(/^malformed pull_request payload/);
  });
});

describe("ignore reasons are for people", () => {
  // A JavaScript error's text means nothing in a delivery's `reason` (the probe saw one).
  const JS_ERROR = /Cannot read|undefined|is not a function|is not iterable|TypeError|of null/;

  it("a push without repository is ignored with a reason naming it", () => {
    const push = JSON.parse(deliveries.find((d) => d.event === "push")?.body ?? "{}") as Record<
      string,
      unknown
    >;
    delete push.repository;
    expect(describeEvent("push", push)).toEqual({
      status: "ignored",
      reason: "push payload has no repository",
    });
  });

  it("every example with any one top-level field removed is described, or ignored for a clean reason", () => {
    let cases = 0;
    for (const d of deliveries) {
      const example = JSON.parse(d.body) as Record<string, unknown>;
      for (const key of Object.keys(example)) {
        const { [key]: _, ...payload } = example;
        const result = describeEvent(d.event, payload);
        cases++;
        if (result.status === "ignored")
          expect(result.reason, `${d.name} without ${key}`).not.toMatch(JS_ERROR);
        // What is described is also stored: its event keys must be readable.
        else expect(() => eventKeys(d.event, payload), `${d.name} without ${key}`).not.toThrow();
      }
    }
    expect(cases).toBeGreaterThan(1000);
  });
});
