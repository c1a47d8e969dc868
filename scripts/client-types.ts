import openapiTS, { astToString } from "openapi-typescript";
import { createApp } from "../src/api/app";
import type { AppDeps } from "../src/api/deps";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import { createMetrics } from "../src/metrics";

/** Where the client's generated types live (committed, checked fresh by test/client/types-fresh.test.ts). */
export const CLIENT_TYPES_PATH = "client/src/generated/openapi.ts";

const HEADER = `// Generated from memstream's /openapi.json by \`npm run client:generate\` (openapi-typescript). Do not edit.
// test/client/types-fresh.test.ts fails when this file no longer matches the server's document.
`;

/**
 * The server's OpenAPI document (for the configuration `env`), from the real app in-process. Serving it touches no dependency,
 * so the app is built with configuration only: nothing here opens a database.
 */
export async function serverOpenApiDocument(
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const config = loadConfig(env);
  // Only what building the routes reads; handlers (never called here) would need the rest.
  const documentOnly = {
    config,
    logger: silentLogger,
    metrics: createMetrics({ defaultMetrics: false }),
    queues: null,
  } as unknown as AppDeps;
  const res = await createApp(documentOnly).request("/openapi.json");
  if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The client's types module for the server's current document. */
export async function generateClientTypes(): Promise<string> {
  // biome-ignore lint/suspicious/noExplicitAny: openapi-typescript's input type is its own OpenAPI3 shape.
  const ast = await openapiTS((await serverOpenApiDocument()) as any, {
    // A default makes a field optional for the caller (the server fills it in), not required.
    defaultNonNullable: false,
  });
  return HEADER + astToString(ast);
}
