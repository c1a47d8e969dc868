import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES_PATH, generateClientTypes } from "../../scripts/client-types";

// The client cannot drift from the server: its types must be what the server's document generates now.
describe("@memstream/client generated types", () => {
  it("match the server's current /openapi.json (run `npm run client:generate` after an API change)", async () => {
    const committed = readFileSync(CLIENT_TYPES_PATH, "utf8");
    const fresh = await generateClientTypes();
    expect(committed === fresh, `${CLIENT_TYPES_PATH} is stale: run \`npm run client:generate\``).toBe(true);
    // The document really is the app's: every /v1 path appears in the types.
    expect(fresh).toContain('"/v1/agents/{agentId}/retrieve"');
  });
});
