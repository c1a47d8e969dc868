import { z } from "@hono/zod-openapi";
import { RETENTION_LIMITS } from "../memory/retention/policy";

/** A retention policy, as the settings and forget routes take it (src/memory/retention/policy.ts). */
export const RetentionPolicySchema = z
  .object({
    maxMemories: z.number().int().min(0).max(RETENTION_LIMITS.maxMemories).optional().openapi({
      description: "Delete the oldest deletable memories until the stream holds at most this many",
    }),
    maxAgeDays: z.number().positive().max(RETENTION_LIMITS.maxAgeDays).optional().openapi({
      description: "Delete deletable memories created more than this many days ago (fractions allowed)",
    }),
    keepImportanceAtLeast: z.number().int().min(1).max(10).optional().openapi({
      description: "Never delete memories scored at least this important; unscored memories are kept too",
    }),
  })
  .strict()
  .refine((p) => p.maxMemories !== undefined || p.maxAgeDays !== undefined, {
    message: "a retention policy needs maxMemories or maxAgeDays",
  })
  .openapi("RetentionPolicy", {
    description:
      "What retention may delete. Never deleted: lessons, document sections, and memories a reflection or lesson cites. Vectors go with their memories.",
    example: { maxMemories: 10_000, maxAgeDays: 90, keepImportanceAtLeast: 8 },
  });
