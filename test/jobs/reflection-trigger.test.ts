import { afterAll, beforeAll, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { waitFor } from "./support";

// End to end: importance scored by the LLM (through the workers) pushes an agent over its
// reflection threshold, and a reflection citing its evidence appears in the stream on its own.
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ env: { LLM_MODEL: "stub-chat", REFLECTION_THRESHOLD: "20" } });
  t.system.jobs.startWorkers();
});
afterAll(() => t.close());

type Mem = {
  id: string;
  kind: string;
  description: string;
  citations: string[];
  status: { importance: string };
};

const list = async (agent: string, q = "") =>
  ((await (await t.call("GET", `/v1/agents/${agent}/memories${q}`)).json()) as { memories: Mem[] }).memories;
const runs = async (agent: string) =>
  (
    (await (await t.call("GET", `/v1/agents/${agent}/reflections/runs`)).json()) as {
      runs: { trigger: string; status: string }[];
    }
  ).runs;

it("LLM-scored observations trigger a reflection at the threshold, not before", async () => {
  const agent = uniq("auto-reflect");
  t.stub.scriptChatWhen(/most salient high-level questions/, [
    "1. Why do deploys keep failing?\n2. Who fixes them?\n3. What breaks?",
  ]);
  t.stub.scriptChatWhen(/high-level insights/, [
    "1. The deploy pipeline is fragile (because of 1, 2)",
    "1. The database migration is a common cause of failures (because of 3)",
    "no insight",
  ]);

  // Two memories the stub scores 8 each: 16 < 20.
  await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: [
      { description: "the deploy failed at 9am" },
      { description: "the deploy failed again at noon" },
    ],
  });
  await waitFor("two scored", async () => {
    const ms = await list(agent);
    return ms.every((m) => m.status.importance === "ready") ? ms : null;
  });
  expect(await runs(agent)).toEqual([]);

  // The third crosses the threshold (24 ≥ 20).
  await t.call("POST", `/v1/agents/${agent}/memories`, {
    description: "the database migration failed during the deploy",
  });
  const reflections = await waitFor(
    "a reflection",
    async () => {
      const r = await list(agent, "?kind=reflection");
      return r.length >= 2 ? r : null;
    },
    60_000,
  ).catch(async (err: Error) => {
    // Say why (a run failed? never started? which chat calls?): a timeout alone says nothing.
    const chats = t.stub.requests
      .filter((r) => r.path === "/v1/chat/completions")
      .map((r) => JSON.stringify(r.body).slice(-120));
    throw new Error(
      `${err.message}\nruns: ${JSON.stringify(await runs(agent))}\nmemories: ${JSON.stringify(
        (await list(agent)).map((m) => [m.kind, m.status.importance]),
      )}\nchat calls (${chats.length}): ${chats.join("\n  ")}`,
    );
  });
  const observations = new Set((await list(agent, "?kind=observation")).map((m) => m.id));
  for (const r of reflections) {
    expect(r.citations.length).toBeGreaterThan(0);
    for (const c of r.citations) expect(observations.has(c)).toBe(true);
  }
  expect(reflections.map((r) => r.description).sort()).toEqual([
    "The database migration is a common cause of failures",
    "The deploy pipeline is fragile",
  ]);
  const [run] = await runs(agent);
  expect(run).toMatchObject({ trigger: "threshold", status: "succeeded" });
}, 90_000);
