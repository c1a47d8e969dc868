import type { ApiKey } from "../config";

/** Hono context variables set by middleware. */
export type AppEnv = { Variables: { requestId: string; apiKey: ApiKey } };
