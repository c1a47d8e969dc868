import { z } from "@hono/zod-openapi";
import { LIMITS } from "../memory/limits";
import { NewMemory } from "./schemas";

/** A batch of memories: `{memories: [...]}`. */
export const Batch = z
  .object({
    memories: z
      .array(NewMemory)
      .min(1)
      .max(LIMITS.batchSize, `at most ${LIMITS.batchSize} memories per batch`),
  })
  .strict();

/**
 * The body of `POST /v1/agents/{agentId}/memories`: one memory or a batch. Validated by the route
 * on the event loop, or for a large body by the body thread (body-work.ts), whose answer the
 * route takes as it is.
 */
export const MemoriesBody = z.union([Batch, NewMemory]);
export type MemoriesBody = z.output<typeof MemoriesBody>;
