import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDeliveryStatus } from "../../src/ingest/github/delivery-status";
import { child, example } from "../ingest/github/fixtures";
import { uniq } from "../support/env";
import { deliver, deliveryRow, sign, waitForDeliveries } from "../support/github";
import { startTestSystem, type TestSystem, without } from "../support/system";

const s = uniq("gh");
const OLD = `old-${s}`;
const NEW = `new-${s}`;
const routed = `acme/routed-${s}`;
const [agentA, agentB] = [`a-${s}`, `b-${s}`];
const admin = { authorization: `Bearer admin-${s}` };

let t: TestSystem;
let unconfigured: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    env: {
      GITHUB_WEBHOOK_SECRET: `${OLD}, ${NEW}`,
      GITHUB_ROUTES: `repo:${routed}=${agentA},${agentB}`,
      MEMSTREAM_API_KEYS: `admin-${s}`,
    },
    // Only the deliveries' jobs run here; enrichment has its own tests.
    announce: without("memories.pending"),
  });
  t.system.jobs.startWorkers();
  unconfigured = await startTestSystem();
});
afterAll(async () => {
  await t.close();
  await unconfigured.close();
});

let n = 0;
const newId = () => `${s}-${++n}`;

/** The pull_request opened example, moved to its own repository so its stream is this test's alone. */
function pullRequestIn(repo: string) {
  const payload = example("pull_request", "opened");
  const repository = child(payload, "repository");
  repository.full_name = repo;
  repository.name = repo.split("/")[1];
  return JSON.stringify(payload);
}

async function memoriesOf(agent: string) {
  const res = await t.call("GET", `/v1/agents/${encodeURIComponent(agent)}/memories`, undefined, admin);
  expect(res.status).toBe(200);
  return ((await res.json()) as { memories: { description: string; createdAt: string; metadata: object }[] })
    .memories;
}

async function expectError(res: Response, status: number, code: string, field?: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as {
    error: { code: string; message: string; details?: { field?: string } };
  };
  expect(body.error.code).toBe(code);
  if (field) expect(body.error.details?.field).toBe(field);
  return body.error;
}

describe("POST /webhooks/github: happy path", () => {
  it("turns a pull request into one well-written observation at the payload's time", async () => {
    const repo = `acme/pr-${s}`;
    const id = newId();
    const res = await deliver(t, { event: "pull_request", id, body: pullRequestIn(repo), secret: NEW });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ deliveryId: id, status: "accepted" });
    await waitForDeliveries(t, [id]);

    const memories = await memoriesOf(`github:${repo}`);
    expect(memories.map((m) => [m.description, m.createdAt])).toEqual([
      [
        `Codertocat opened pull request #2 "Update the README with new information." in ${repo} (1 file changed)`,
        "2019-05-15T15:20:33.000Z",
      ],
    ]);
    expect(memories[0]?.metadata).toMatchObject({ source: "github", event: "pull_request", deliveryId: id });
    expect(await deliveryRow(t, id)).toMatchObject({
      status: "processed",
      event: "pull_request",
      action: "opened",
      agentIds: [`github:${repo}`],
      observations: 1,
      payload: null,
    });
  });

  it("routes one repository to two agents: each stream gets the observation once", async () => {
    const id = newId();
    const res = await deliver(t, { event: "pull_request", id, body: pullRequestIn(routed), secret: OLD });
    expect(res.status).toBe(202);
    await waitForDeliveries(t, [id]);
    for (const agent of [agentA, agentB]) {
      expect((await memoriesOf(agent)).map((m) => m.description)).toEqual([
        `Codertocat opened pull request #2 "Update the README with new information." in ${routed} (1 file changed)`,
      ]);
    }
    expect((await memoriesOf(`github:${routed}`)).length).toBe(0);
  });

  it("answers a redelivery of the same id as a duplicate and creates nothing new", async () => {
    const repo = `acme/redeliver-${s}`;
    const id = newId();
    const body = pullRequestIn(repo);
    expect((await deliver(t, { event: "pull_request", id, body, secret: NEW })).status).toBe(202);
    const again = await deliver(t, { event: "pull_request", id, body, secret: NEW });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ deliveryId: id, status: "duplicate" });
    await waitForDeliveries(t, [id]);
    const late = await deliver(t, { event: "pull_request", id, body, secret: OLD });
    expect(await late.json()).toEqual({ deliveryId: id, status: "duplicate" });
    await t.system.services.announce([{ kind: "delivery.accepted", deliveryId: id }]); // a stray extra run is harmless too
    await waitForDeliveries(t, [id]);
    expect((await memoriesOf(`github:${repo}`)).length).toBe(1);
  });

  it("answers a ping with pong and records it as ignored", async () => {
    const id = newId();
    // Its own zen: the same body under another delivery id would be a replay (answered `duplicate`).
    const body = JSON.stringify({ ...example("ping"), zen: `zen of ${id}` });
    const res = await deliver(t, { event: "ping", id, body, secret: NEW });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deliveryId: id, status: "accepted", pong: true });
    const [row] = await waitForDeliveries(t, [id]);
    expect(row).toMatchObject({ status: "ignored", reason: "ping only confirms the webhook is set up" });
  });

  it("accepts the form-encoded content type GitHub can be set to", async () => {
    const repo = `acme/form-${s}`;
    const id = newId();
    const body = new URLSearchParams({ payload: pullRequestIn(repo) }).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const res = await deliver(t, { event: "pull_request", id, body, secret: NEW, headers });
    expect(res.status).toBe(202);
    await waitForDeliveries(t, [id]);
    expect((await memoriesOf(`github:${repo}`)).length).toBe(1);
  });
});

describe("POST /webhooks/github: strings Postgres cannot store", () => {
  it("stores an issue whose body holds NUL and a lone surrogate, dropping NUL and replacing the surrogate", async () => {
    const repo = `acme/nul-${s}`;
    const payload = example("issues", "opened");
    const repository = child(payload, "repository");
    repository.full_name = repo;
    repository.name = repo.split("/")[1];
    const issue = child(payload, "issue");
    issue.title = "Parser\u0000 chokes";
    issue.body = "it reads \u0000 then \ud800 and dies";
    issue["x\u0000key"] = "keys are cleaned too";
    const id = newId();
    // JSON.stringify writes both as \u escapes, as GitHub does.
    const res = await deliver(t, { event: "issues", id, body: JSON.stringify(payload), secret: NEW });
    expect(res.status).toBe(202);
    const [row] = await waitForDeliveries(t, [id]);
    expect(row).toMatchObject({ status: "processed", observations: 1 });
    const [memory] = await memoriesOf(`github:${repo}`);
    expect(memory?.description).toContain('"Parser chokes"');
    expect(memory?.description).toMatch(/it reads +then \uFFFD and dies/);
  });
});

describe("OpenAPI", () => {
  it("documents the webhook (signature, no API key) and the deliveries listing", async () => {
    const doc = (await (await t.call("GET", "/openapi.json")).json()) as {
      paths: Record<string, Record<string, { security?: unknown[]; responses: object }>>;
    };
    expect(doc.paths["/webhooks/github"]?.post?.security).toEqual([]);
    expect(Object.keys(doc.paths["/webhooks/github"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["202", "401", "413"]),
    );
    expect(doc.paths["/v1/webhooks/github/deliveries"]?.get).toBeDefined();
  });
});

describe("POST /webhooks/github: nothing unsigned is accepted", () => {
  const body = JSON.stringify(example("issues", "opened"));

  it.each([
    ["a missing signature (unsigned body)", {}],
    ["a signature of another body", { "x-hub-signature-256": sign(`${body} `, NEW) }],
    ["a signature under an unknown secret", { "x-hub-signature-256": sign(body, "not-our-secret") }],
    ["a malformed signature", { "x-hub-signature-256": "sha256=zz" }],
    ["a SHA-1 signature", { "x-hub-signature": "sha1=0000000000000000000000000000000000000000" }],
  ])("answers 401 to %s and stores nothing", async (_, headers) => {
    const id = newId();
    const res = await deliver(t, { event: "issues", id, body, headers });
    await expectError(res, 401, "invalid_signature", "X-Hub-Signature-256");
    expect(await getDeliveryStatus(t.system.services, id)).toBeNull();
  });

  it("answers 501 not_configured when no secret is configured", async () => {
    const id = newId();
    const res = await deliver(unconfigured, { event: "issues", id, body, secret: NEW });
    const error = await expectError(res, 501, "not_configured");
    expect(error.message).toMatch(/GITHUB_WEBHOOK_SECRET/);
    expect(await getDeliveryStatus(unconfigured.system.services, id)).toBeNull();
  });
});

describe("POST /webhooks/github: malformed deliveries", () => {
  const body = JSON.stringify(example("issues", "opened"));

  it.each([
    ["X-GitHub-Event", { "x-github-event": "" }],
    ["X-GitHub-Delivery", { "x-github-delivery": "" }],
  ])("answers 400 naming a missing %s", async (header, headers) => {
    const res = await deliver(t, { event: "issues", id: newId(), body, secret: NEW, headers });
    const error = await expectError(res, 400, "invalid_request", header);
    expect(error.message).toBe(`missing ${header} header`);
  });

  it("answers 400 to a validly signed body that is not JSON, and stores nothing", async () => {
    const id = newId();
    const res = await deliver(t, { event: "issues", id, body: '{"action": "opened",', secret: NEW });
    await expectError(res, 400, "invalid_request", "body");
    expect(await getDeliveryStatus(t.system.services, id)).toBeNull();
  });

  it("answers 413 to a body over GitHub's 25 MB limit, and stores nothing", async () => {
    const id = newId();
    const big = new Uint8Array(25 * 1024 * 1024 + 1).fill(0x20);
    const res = await deliver(t, { event: "issues", id, body: big, secret: NEW });
    const error = await expectError(res, 413, "payload_too_large");
    expect(error.message).toMatch(/26214400/);
    expect(await getDeliveryStatus(t.system.services, id)).toBeNull();
  });
});
