import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import type { TestSystem } from "../support/system";
import { startPipeline, waitFor } from "./support";

// outcomes.consolidate through BullMQ (Redis), the same processor the in-process queue runs
// (test/api/outcomes.test.ts): the announced job reaches a worker and writes the lesson. The stub
// LLM answers every chat with an importance rating, which is no lesson: the job retries, and its
// last attempt words the lesson with the template.
let pipeline: Awaited<ReturnType<typeof startPipeline>>;
let t: TestSystem;
const agent = uniq("learn-bull");
beforeAll(async () => {
  pipeline = await startPipeline({ EMBEDDING_PROVIDER: "offline" });
  t = pipeline.t;
  t.system.jobs.startWorkers();
}, 120_000);
afterAll(() => pipeline?.close([agent]));

describe("outcomes.consolidate on BullMQ", () => {
  it("turns three similar failures into an anti-pattern lesson", async () => {
    const body = {
      task: "Fix the flaky upload test",
      taskType: "fix-ci",
      success: false,
      strategy: "rerun",
      error: "timeout",
    };
    for (let i = 0; i < 3; i++) {
      const res = await t.call("POST", `/v1/agents/${agent}/outcomes`, body);
      expect(res.status).toBe(201);
    }
    const [lesson] = await waitFor(
      "a lesson",
      async () => {
        const res = await t.call("GET", `/v1/agents/${agent}/lessons?taskType=fix-ci`);
        const { lessons } = (await res.json()) as {
          lessons: { polarity: string; description: string; wording: string }[];
        };
        return lessons.length > 0 ? lessons : null;
      },
      60_000,
    );
    expect(lesson).toMatchObject({
      polarity: "anti-pattern",
      wording: "template:v1",
      description:
        'Lesson for fix-ci tasks like "Fix the flaky upload test": avoid rerun: it failed 3 times with "timeout".',
    });
  }, 90_000);
});
