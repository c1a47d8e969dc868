import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { Description, Importance, IsoTime, Kind, MemoryId, Metadata } from "../../api/schemas";
import { Invalid } from "../../lib/errors";
import { createMemories } from "../../memory/create-memories";
import { LIMITS } from "../../memory/limits";
import { AgentIdArg, resolveAgent } from "../agent";
import type { McpDepsSource, McpSession } from "../deps";
import { guard, ok } from "../result";

const Item = z.object({
  description: Description.describe(
    "One self-contained statement in plain language, with names and specifics, e.g. 'Maria said she will bring Klaus to the party on Friday'",
  ),
  kind: Kind.optional().describe(
    "observation (default): something seen, heard or done; plan: an intention; reflection: a conclusion",
  ),
  importance: Importance.optional().describe(
    "1 (mundane) to 10 (life-changing); omit it and the server scores it",
  ),
  createdAt: IsoTime.optional().describe("When it happened (ISO 8601); default now"),
  metadata: Metadata.optional().describe('Small JSON object for filtering later, e.g. {"source":"chat"}'),
  supersedes: z
    .array(MemoryId)
    .max(LIMITS.supersedes)
    .optional()
    .describe(
      "Ids of earlier memories this one replaces (a newer version of the same fact, e.g. 'Alice moved to Berlin' replacing 'Alice lives in Paris'); they are kept, marked as replaced",
    ),
});

const input = {
  agentId: AgentIdArg,
  ...Item.partial().shape,
  memories: z
    .array(Item)
    .min(1)
    .max(LIMITS.batchSize)
    .optional()
    .describe(`Several memories at once (up to ${LIMITS.batchSize}), instead of description`),
};

/** `remember`: store one observation (description) or many (memories), all or nothing. */
export function registerRemember(server: McpServer, source: McpDepsSource, session: McpSession) {
  server.registerTool(
    "remember",
    {
      title: "Remember",
      description: [
        "Store what you observed, did, planned or concluded in long-term memory, so you can recall it in later turns or sessions.",
        "Write each memory as one self-contained statement with names and specifics (who, what, where), not a pronoun-laden fragment.",
        "Give `description` for one memory, or `memories` for several at once.",
        "Importance and embeddings are computed in the background; the ids returned can be used with `forget`.",
      ].join(" "),
      inputSchema: input,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    (args) =>
      guard(source, "remember", async (deps) => {
        const agentId = resolveAgent(session, args.agentId);
        const { agentId: _, memories: many, ...one } = args;
        if (many && one.description !== undefined) {
          throw new Invalid("give either description or memories, not both", { field: "memories" });
        }
        if (!many && one.description === undefined) {
          throw new Invalid("description is required (or memories, for several)", { field: "description" });
        }
        const inputs = many ?? [{ ...one, description: one.description as string }];
        const stored = await createMemories(deps, agentId, inputs);
        const ids = stored.map((m) => m.id);
        return ok(
          `Stored ${stored.length} memor${stored.length === 1 ? "y" : "ies"} for ${agentId}: ${ids.join(", ")}`,
          {
            agentId,
            ids,
          },
        );
      }),
  );
}
