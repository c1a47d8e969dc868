/**
 * Parsing and validating a request body, as a plain function of its bytes: what a BodyWork runs in
 * its thread (body.worker.ts) or inline. The same functions as the route's: `parseMemoriesJson`
 * (vectors read straight into float32) and the route's zod schema, so answers and errors match.
 */
import type { core } from "zod";
import { MemoriesBody } from "./memories-body";
import { parseMemoriesJson } from "./vector-json";

/** A parsed body: valid (the schema's output), invalid (zod's issues), or not JSON at all. */
export type ParsedBody =
  | { kind: "valid"; data: MemoriesBody }
  | { kind: "invalid"; issues: core.$ZodIssue[] }
  | { kind: "malformed" };

export const bodyTasks = {
  /** A `POST /memories` body: JSON, then the route's schema. */
  async memories(bytes: Uint8Array): Promise<ParsedBody> {
    let value: unknown;
    try {
      value = parseMemoriesJson(bytes);
    } catch {
      return { kind: "malformed" };
    }
    const result = await MemoriesBody.safeParseAsync(value);
    return result.success
      ? { kind: "valid", data: result.data }
      : { kind: "invalid", issues: result.error.issues };
  },
};
