import { OpenAPIHono } from "@hono/zod-openapi";
import { requestId } from "hono/request-id";
import { MCP_PATH, registerMcpRoute } from "../mcp/http";
import { PORTABLE_LIMITS } from "../memory/portable/format";
import { registerUi } from "../ui/routes";
import { authorizeAgent, requireApiKey } from "./auth";
import { bodyLimit } from "./body-limit";
import type { AppDeps } from "./deps";
import type { AppEnv } from "./env";
import { errorResponse, onError, validationError } from "./errors";
import { observeRequests } from "./observe";
import { BEARER_SCHEME, openApiInfo } from "./openapi-info";
import { registerQueueDashboard } from "./routes/admin-queues";
import { registerClearCache } from "./routes/agents/clear-cache";
import { registerEraseAgent } from "./routes/agents/erase";
import { registerGetErasure } from "./routes/agents/erasure";
import { registerExportAgent } from "./routes/agents/export";
import { registerFeedback } from "./routes/agents/feedback";
import { registerForget } from "./routes/agents/forget";
import { registerImportAgent } from "./routes/agents/import";
import { registerListLessons } from "./routes/agents/lessons";
import { registerMaintenance } from "./routes/agents/maintenance";
import { registerRecordOutcome } from "./routes/agents/outcomes";
import { registerReflect } from "./routes/agents/reflect";
import { registerReflectionRuns } from "./routes/agents/reflection-runs";
import { registerResetLearned } from "./routes/agents/reset-learned";
import { registerRetrieve } from "./routes/agents/retrieve";
import { registerRetryEnrichment } from "./routes/agents/retry-enrichment";
import { registerAgentSettings } from "./routes/agents/settings";
import { registerAgentStats } from "./routes/agents/stats";
import { registerDocs } from "./routes/docs";
import { registerDeleteDocument } from "./routes/documents/delete";
import { registerImportDocument } from "./routes/documents/import";
import { registerListDocuments } from "./routes/documents/list";
import { registerHealth } from "./routes/health";
import { registerGithubImport } from "./routes/imports/github";
import { registerCreateMemories } from "./routes/memories/create";
import { registerDeleteMemory } from "./routes/memories/delete";
import { registerDeleteMemories } from "./routes/memories/delete-many";
import { registerGetMemory } from "./routes/memories/get";
import { registerGetMemoryHistory } from "./routes/memories/history";
import { registerListMemories } from "./routes/memories/list";
import { registerUpdateMemory } from "./routes/memories/update";
import { registerMetrics } from "./routes/metrics";
import { registerCreateSubscription } from "./routes/subscriptions/create";
import { registerDeleteSubscription } from "./routes/subscriptions/delete";
import { registerListEventDeliveries } from "./routes/subscriptions/deliveries";
import { registerGetSubscription } from "./routes/subscriptions/get";
import { registerListSubscriptions } from "./routes/subscriptions/list";
import { registerRedeliver } from "./routes/subscriptions/redeliver";
import { registerListDeliveries } from "./routes/webhooks/deliveries";
import {
  GITHUB_MAX_PAYLOAD_BYTES,
  GITHUB_WEBHOOK_PATH,
  registerGithubWebhook,
} from "./routes/webhooks/github";
import { registerRetryDelivery } from "./routes/webhooks/retry-delivery";

/** `POST /v1/agents/{agentId}/import` (agent ids hold no `/` unencoded). */
const IMPORT_PATH = /^\/v1\/agents\/[^/]+\/import$/;

/** Builds the HTTP app: middleware, every route, the OpenAPI document. No I/O happens here. */
export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success)
        return validationError(c, result.error, result.target === "json" ? "body" : result.target);
    },
  });

  app.use("*", requestId({ headerName: "x-request-id" }));
  app.use("*", observeRequests(deps.logger, deps.metrics));
  app.onError(onError(deps.logger));
  app.notFound((c) => errorResponse(c, "not_found", `no route for ${c.req.method} ${c.req.path}`));

  const apiBodyLimit = bodyLimit({
    maxSize: deps.config.maxBodyBytes,
    onError: (c) =>
      errorResponse(c, "payload_too_large", `request body over ${deps.config.maxBodyBytes} bytes`, {
        limit: deps.config.maxBodyBytes,
      }),
  });
  // An import streams its body line by line: it has its own, larger bound (portable/format.ts).
  const importBodyLimit = bodyLimit({
    maxSize: PORTABLE_LIMITS.importBytes,
    onError: (c) =>
      errorResponse(c, "payload_too_large", `import body over ${PORTABLE_LIMITS.importBytes} bytes`, {
        limit: PORTABLE_LIMITS.importBytes,
      }),
  });
  app.use("/v1/*", (c, next) =>
    c.req.method === "POST" && IMPORT_PATH.test(c.req.path)
      ? importBodyLimit(c, next)
      : apiBodyLimit(c, next),
  );
  app.use(MCP_PATH, apiBodyLimit);
  // The GitHub webhook is outside /v1: authenticated by its signature, limited to GitHub's own cap.
  app.use(
    GITHUB_WEBHOOK_PATH,
    bodyLimit({
      maxSize: GITHUB_MAX_PAYLOAD_BYTES,
      onError: (c) =>
        errorResponse(
          c,
          "payload_too_large",
          `webhook body over GitHub's ${GITHUB_MAX_PAYLOAD_BYTES} bytes`,
          {
            limit: GITHUB_MAX_PAYLOAD_BYTES,
          },
        ),
    }),
  );
  app.use("/v1/*", requireApiKey(deps.config.apiKeys));
  app.use(MCP_PATH, requireApiKey(deps.config.apiKeys));
  app.use("/v1/agents/:agentId", authorizeAgent());
  app.use("/v1/agents/:agentId/*", authorizeAgent());

  registerHealth(app, deps);
  registerMetrics(app, deps);
  registerQueueDashboard(app, deps);
  registerDocs(app);
  registerCreateMemories(app, deps);
  registerListMemories(app, deps);
  registerGetMemory(app, deps);
  registerGetMemoryHistory(app, deps);
  registerUpdateMemory(app, deps);
  registerDeleteMemory(app, deps);
  registerDeleteMemories(app, deps);
  registerEraseAgent(app, deps);
  registerGetErasure(app, deps);
  registerAgentStats(app, deps);
  registerRetrieve(app, deps);
  registerFeedback(app, deps);
  registerResetLearned(app, deps);
  registerClearCache(app, deps);
  registerGithubWebhook(app, deps);
  registerListDeliveries(app, deps);
  registerRetryDelivery(app, deps);
  registerReflect(app, deps);
  registerReflectionRuns(app, deps);
  registerAgentSettings(app, deps);
  registerRecordOutcome(app, deps);
  registerListLessons(app, deps);
  registerRetryEnrichment(app, deps);
  registerForget(app, deps);
  registerMaintenance(app, deps);
  registerExportAgent(app, deps);
  registerImportAgent(app, deps);
  registerUi(app, deps);
  registerMcpRoute(app, deps);
  registerImportDocument(app, deps);
  registerListDocuments(app, deps);
  registerDeleteDocument(app, deps);
  registerGithubImport(app, deps);
  registerCreateSubscription(app, deps);
  registerListSubscriptions(app, deps);
  registerGetSubscription(app, deps);
  registerDeleteSubscription(app, deps);
  registerListEventDeliveries(app, deps);
  registerRedeliver(app, deps);

  const keysRequired = deps.config.apiKeys.length > 0;
  if (keysRequired) app.openAPIRegistry.registerComponent("securitySchemes", "bearer", BEARER_SCHEME);
  app.doc31("/openapi.json", openApiInfo(keysRequired));
  return app;
}
