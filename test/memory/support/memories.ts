import type { Memory } from "../../../src/memory/types.js";

/** A complete Memory with sensible defaults, for pure unit tests. */
export function memory(over: Partial<Memory> & { id: string }): Memory {
  return {
    agentId: "agent-test",
    kind: "observation",
    description: `memory ${over.id}`,
    createdAt: "2023-05-08T13:56:00.000Z",
    lastAccessedAt: "2023-05-08T13:56:00.000Z",
    importance: 5,
    importanceSource: "caller",
    embeddingModel: "test",
    metadata: {},
    citations: [],
    supersededBy: null,
    validUntil: null,
    expiresAt: null,
    status: { importance: "ready", embedding: "ready" },
    ...over,
  };
}
