import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Supersession as data (docs/adr/0029): `supersedes` on write marks the older memories, the
// answer's memory shape carries supersededBy / validUntil, other agents' ids are refused naming
// the field, and deleting the replacing memory makes the older one current again.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

type Mem = { id: string; createdAt: string; supersededBy: string | null; validUntil: string | null };
type ErrorBody = { error: { code: string; message: string; details?: { field?: string } } };
const path = (a: string) => `/v1/agents/${encodeURIComponent(a)}/memories`;

async function post(agent: string, body: unknown): Promise<Response> {
  return t.call("POST", path(agent), body);
}
async function get(agent: string, id: string): Promise<Mem> {
  const res = await t.call("GET", `${path(agent)}/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Mem;
}

describe("supersedes on write", () => {
  it("marks the older memory superseded by the new one, valid until the new one's createdAt", async () => {
    const agent = uniq("sup");
    const old = (await (
      await post(agent, { description: "Alice lives in Paris", createdAt: "2026-01-05T10:00:00Z" })
    ).json()) as Mem;
    expect(old.supersededBy).toBeNull();
    expect(old.validUntil).toBeNull();
    const res = await post(agent, {
      description: "Alice moved to Berlin",
      createdAt: "2026-03-02T09:00:00Z",
      supersedes: [old.id],
    });
    expect(res.status).toBe(201);
    const next = (await res.json()) as Mem;
    expect(next.supersededBy).toBeNull();
    const now = await get(agent, old.id);
    expect(now.supersededBy).toBe(next.id);
    expect(now.validUntil).toBe("2026-03-02T09:00:00.000Z");
    // The list shows it too.
    const list = (await (await t.call("GET", path(agent))).json()) as { memories: Mem[] };
    expect(list.memories.find((m) => m.id === old.id)?.supersededBy).toBe(next.id);
  });

  it("takes supersedes in a batch, the last replacement named winning", async () => {
    const agent = uniq("sup-batch");
    const a = (await (await post(agent, { description: "the build uses node 18" })).json()) as Mem;
    const res = await post(agent, {
      memories: [
        { description: "the build uses node 20", supersedes: [a.id] },
        { description: "the build uses node 22", supersedes: [a.id, a.id] },
      ],
    });
    expect(res.status).toBe(201);
    const { memories } = (await res.json()) as { memories: Mem[] };
    expect((await get(agent, a.id)).supersededBy).toBe(memories[1]?.id);
  });

  it("refuses ids of another agent or unknown ids, naming the field, and stores nothing", async () => {
    const agent = uniq("sup-bad");
    const other = uniq("sup-other");
    const theirs = (await (await post(other, { description: "not yours" })).json()) as Mem;
    for (const [body, field] of [
      [{ description: "x", supersedes: [theirs.id] }, "body.supersedes"],
      [
        { memories: [{ description: "y" }, { description: "z", supersedes: ["mem_nope"] }] },
        "memories[1].supersedes",
      ],
    ] as const) {
      const res = await post(agent, body);
      expect(res.status).toBe(400);
      const e = (await res.json()) as ErrorBody;
      expect(e.error.code).toBe("invalid_request");
      expect(e.error.details?.field).toBe(field);
    }
    expect((await get(other, theirs.id)).supersededBy).toBeNull();
    const list = (await (await t.call("GET", path(agent))).json()) as { memories: Mem[] };
    expect(list.memories).toEqual([]);
    const tooMany = await post(agent, {
      description: "x",
      supersedes: Array.from({ length: 101 }, (_, i) => `mem_${i}`),
    });
    expect(tooMany.status).toBe(400);
  });

  it("deleting the replacing memory makes the older one current again; deleting the older leaves the newer as it is", async () => {
    const agent = uniq("sup-del");
    const v1 = (await (await post(agent, { description: "Bob works at Acme" })).json()) as Mem;
    const v2 = (await (
      await post(agent, { description: "Bob joined Initech", supersedes: [v1.id] })
    ).json()) as Mem;
    const v3 = (await (
      await post(agent, { description: "Bob joined Globex", supersedes: [v2.id] })
    ).json()) as Mem;
    expect((await t.call("DELETE", `${path(agent)}/${v2.id}`)).status).toBe(200);
    const after = await get(agent, v1.id);
    expect(after.supersededBy).toBeNull();
    expect(after.validUntil).toBeNull();
    expect((await get(agent, v3.id)).supersededBy).toBeNull();
    const v4 = (await (
      await post(agent, { description: "Bob left Globex", supersedes: [v3.id] })
    ).json()) as Mem;
    expect((await t.call("DELETE", `${path(agent)}/${v3.id}`)).status).toBe(200);
    expect((await get(agent, v4.id)).supersededBy).toBeNull();
  });
});
