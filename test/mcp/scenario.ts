import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import postgres from "postgres";
import { expect } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import type { Stub } from "../support/stub-openai";

export const TOOL_NAMES = ["feedback", "forget", "recall", "record_outcome", "reflect", "remember", "stats"];

/** Calls a tool and returns its result, failing the test on a transport-level error. */
export async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A field of the tool's structured content (the tests know its shape). */
export const field = <T>(r: CallToolResult, key: string) => r.structuredContent?.[key] as T;

export const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** Rows of an agent as Postgres has them, read over a connection of the test's own. */
export async function rowsOf(agentId: string) {
  const sql = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    return await sql<
      { id: string; description: string; kind: string; importance: number | null; citations: string[] }[]
    >`
      SELECT id, description, kind, importance, citations FROM memories WHERE agent_id = ${agentId} ORDER BY created_at, id`;
  } finally {
    await sql.end();
  }
}

/**
 * The round trip both transports must pass: list the tools, then remember (one and many), recall,
 * stats, reflect and forget, checking each effect in Postgres. `agentArg` is what each call
 * passes as agentId (undefined when the connection has a default agent).
 */
export async function exerciseTools(client: Client, stub: Stub, agentId: string, agentArg?: string) {
  const a = agentArg === undefined ? {} : { agentId: agentArg };
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
  for (const tool of tools) {
    expect(tool.description?.length).toBeGreaterThan(80);
    expect(tool.inputSchema.type).toBe("object");
    expect(tool.inputSchema.properties).toHaveProperty("agentId");
  }

  const one = await call(client, "remember", {
    ...a,
    description: "Maria said she will bring her friend Klaus to the Valentine's party",
    importance: 6,
  });
  expect(one.isError).toBeFalsy();
  const many = await call(client, "remember", {
    ...a,
    memories: [
      { description: "Isabella is decorating Hobbs Cafe for the party on Friday", importance: 5 },
      { description: "The coffee machine at Hobbs Cafe is broken", importance: 3, kind: "observation" },
    ],
  });
  expect(many.isError).toBeFalsy();
  const ids = [...field<string[]>(one, "ids"), ...field<string[]>(many, "ids")];
  expect(ids).toHaveLength(3);
  let rows = await rowsOf(agentId);
  expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
  expect(rows.find((r) => r.id === ids[0])).toMatchObject({ importance: 6, kind: "observation" });

  const recall = await call(client, "recall", { ...a, query: "Who is coming to the party?", maxTokens: 400 });
  expect(recall.isError).toBeFalsy();
  expect(text(recall)).toContain("Relevant memories");
  expect(text(recall)).toContain("Klaus");
  const recalled = field<string[]>(recall, "ids");
  expect(recalled.sort()).toEqual([...ids].sort());
  expect(text(recall)).toContain(`ids: `);
  // The recall's id takes feedback on the memories used.
  const retrievalId = field<string>(recall, "retrievalId");
  expect(text(recall)).toContain(`retrievalId: ${retrievalId}`);
  const fb = await call(client, "feedback", { ...a, retrievalId, used: [recalled[0]] });
  expect(fb.isError, text(fb)).toBeFalsy();
  expect(fb.structuredContent).toMatchObject({ used: 1, unused: recalled.length - 1, events: 1 });
  // A budget too small for all three keeps only the best-first prefix.
  const tight = await call(client, "recall", { ...a, query: "party", maxTokens: 30 });
  expect(field<string[]>(tight, "ids").length).toBeLessThan(3);
  expect(tight.structuredContent?.truncated).toBe(true);

  const stats = await call(client, "stats", a);
  expect(stats.structuredContent).toMatchObject({ agentId, total: 3, byKind: { observation: 3 } });
  expect(text(stats)).toContain("3 memories");

  stub.scriptChatWhen(/most salient high-level questions/, [
    "1. Who comes to the party?\n2. Where is it?\n3. What is broken?",
  ]);
  stub.scriptChatWhen(/high-level insights/, [
    "1. The party at Hobbs Cafe is drawing friends of friends (because of 1, 2)",
    "none",
    "none",
  ]);
  const reflect = await call(client, "reflect", a);
  expect(reflect.isError, text(reflect)).toBeFalsy();
  const insights = field<{ id: string; citations: string[] }[]>(reflect, "insights");
  expect(insights).toHaveLength(1);
  rows = await rowsOf(agentId);
  const stored = rows.find((r) => r.id === insights[0]?.id);
  expect(stored?.kind).toBe("reflection");
  expect(stored?.citations.length).toBe(2);
  expect(stored?.citations.every((c) => ids.includes(c))).toBe(true);

  const forget = await call(client, "forget", { ...a, id: ids[2] });
  expect(forget.isError).toBeFalsy();
  rows = await rowsOf(agentId);
  expect(rows.map((r) => r.id)).not.toContain(ids[2]);
  const again = await call(client, "forget", { ...a, id: ids[2] });
  expect(again.isError).toBe(true);
  expect(text(again)).toMatch(/^not_found: /);

  const outcome = await call(client, "record_outcome", {
    ...a,
    task: "Deploy the billing service to staging",
    taskType: "deploy",
    success: false,
    strategy: "in-place restart",
    error: "port 8080 already in use",
  });
  expect(outcome.isError, text(outcome)).toBeFalsy();
  rows = await rowsOf(agentId);
  expect(rows.find((r) => r.id === field<string>(outcome, "id"))).toMatchObject({
    kind: "outcome",
    importance: 6,
  });
  const bad = await call(client, "record_outcome", { ...a, task: "Deploy" });
  expect(bad.isError).toBe(true);
  expect(text(bad)).toMatch(/success/);
}
