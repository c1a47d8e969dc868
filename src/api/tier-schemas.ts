import { z } from "@hono/zod-openapi";
import { COMPACTION_DEFAULTS } from "../memory/tiers/settings-shape";

/** An agent's compaction settings (docs/adr/0044). */
export const CompactionSchema = z
  .object({
    afterDays: z.number().int().min(1).max(36_500).nullable().optional().openapi({
      description: "Observations older than this many days are compacted into summaries; null = off",
      example: 30,
    }),
    groupMax: z
      .number()
      .int()
      .min(2)
      .max(50)
      .optional()
      .openapi({
        description: `Most memories one summary stands for (a day and session split into equal parts); default ${COMPACTION_DEFAULTS.groupMax}`,
      }),
    promoteAfter: z
      .number()
      .int()
      .min(0)
      .max(1_000)
      .optional()
      .openapi({
        description: `Expansions after which an archived memory moves back to the ranked stream; 0 = never; default ${COMPACTION_DEFAULTS.promoteAfter}`,
      }),
  })
  .strict()
  .openapi("CompactionSettings");
