import type { Context, MiddlewareHandler } from "hono";
import type { HtmlEscapedString } from "hono/utils/html";
import { z } from "zod";
import { checkAgentAccess } from "../api/auth";
import { bodyLimit } from "../api/body-limit";
import type { App, AppDeps } from "../api/deps";
import type { AppEnv } from "../api/env";
import { errorResponse, isUnavailable } from "../api/errors";
import { DomainError } from "../lib/errors";
import { agentStats } from "../memory/agent-stats";
import { getMemories, getMemory } from "../memory/get-memory";
import { LIMITS } from "../memory/limits";
import { listAgents } from "../memory/list-agents";
import { listMemories } from "../memory/list-memories";
import { DEFAULT_PRESET, PRESETS } from "../memory/retrieve/presets";
import { RELEVANCE_KINDS } from "../memory/retrieve/ranking/relevance/kinds";
import { RETRIEVE_DEFAULTS, retrieve } from "../memory/retrieve/retrieve";
import { MEMORY_KINDS } from "../memory/types";
import { ErrorBox, Layout } from "./layout";
import { AgentsPage } from "./pages/agents";
import { LoginPage } from "./pages/login";
import { MemoriesPage } from "./pages/memories";
import { MemoryPage } from "./pages/memory";
import { type RetrieveForm, RetrievePage } from "./pages/retrieve";
import { requireUiKey, safeNext, signIn, signOut, UI_PATH } from "./session";

type Ctx = Context<AppEnv>;
const PAGE_SIZE = 50;
const AGENTS_PAGE = 100;

const STATUS: Record<string, 400 | 404 | 409 | 501 | 503> = {
  invalid_request: 400,
  not_found: 404,
  conflict: 409,
  not_configured: 501,
  unavailable: 503,
};

/**
 * A page that renders the domain's answer; domain errors (and an agent outside the key's
 * prefix) become an error page with the same code the API would answer, not a JSON envelope.
 */
async function page(
  c: Ctx,
  agentId: string | null,
  render: () => Promise<HtmlEscapedString | Promise<HtmlEscapedString>>,
) {
  try {
    if (agentId !== null) {
      const denied = checkAgentAccess(agentId, c.get("apiKey"));
      if (denied) throw new DomainError(denied.code, denied.message);
    }
    return c.html(await render());
  } catch (err) {
    const known =
      err instanceof DomainError
        ? err
        : isUnavailable(err)
          ? new DomainError("unavailable", "the database is unreachable; retry later")
          : null;
    if (!known) throw err;
    return c.html(
      <Layout title={known.code} agentId={agentId ?? undefined}>
        <ErrorBox code={known.code} message={known.message} />
      </Layout>,
      STATUS[known.code] ?? 500,
    );
  }
}

// The form starts from the service default preset, so an untouched form ranks like a retrieve
// that gives no ranking fields (decay and its unit, which the form does not show, come from it too).
const FORM_DEFAULT = PRESETS[DEFAULT_PRESET];
const RetrieveQuery = z.object({
  query: z.string().max(LIMITS.queryChars).default(""),
  k: z.coerce.number().int().min(1).max(LIMITS.maxK).default(RETRIEVE_DEFAULTS.k),
  recency: z.coerce.number().min(0).max(100).default(FORM_DEFAULT.weights.recency),
  importance: z.coerce.number().min(0).max(100).default(FORM_DEFAULT.weights.importance),
  relevance: z.coerce.number().min(0).max(100).default(FORM_DEFAULT.weights.relevance),
  now: z.union([z.literal(""), z.iso.datetime({ offset: true })]).default(""),
  mode: z.enum(RELEVANCE_KINDS).default(FORM_DEFAULT.relevance),
  touch: z.literal("1").optional(),
});

/**
 * Headers of every /ui answer. The pages have no script at all and style inline (a <style> block
 * and style attributes), so the policy allows only that; forms post to this origin only.
 */
const uiHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "same-origin");
};

/** The stream browser at /ui: server-rendered pages over the memory domain, behind the API keys. */
export function registerUi(app: App, deps: AppDeps) {
  const keys = deps.config.apiKeys;
  const agentParam = (c: Ctx) => c.req.param("agentId") ?? "";

  // Every page: no script may run, no other site may frame it, no type sniffing.
  app.use(UI_PATH, uiHeaders);
  app.use(`${UI_PATH}/*`, uiHeaders);
  // The forms are a key and a path: a small body, refused before it is read.
  app.use(
    `${UI_PATH}/*`,
    bodyLimit({
      maxSize: LIMITS.uiFormBytes,
      onError: (c) =>
        errorResponse(c, "payload_too_large", `form body over ${LIMITS.uiFormBytes} bytes`, {
          limit: LIMITS.uiFormBytes,
        }),
    }),
  );

  app.get(`${UI_PATH}/login`, (c) =>
    c.html(<LoginPage next={safeNext(c.req.query("next"))} failed={c.req.query("failed") === "1"} />),
  );
  app.post(`${UI_PATH}/login`, async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      return errorResponse(c, "invalid_request", "the login form is not a readable form body", {
        field: "body",
      });
    }
    const next = safeNext(typeof form.next === "string" ? form.next : undefined);
    if (!signIn(c, keys, typeof form.key === "string" ? form.key : "")) {
      return c.redirect(`${UI_PATH}/login?failed=1&next=${encodeURIComponent(next)}`, 303);
    }
    return c.redirect(next, 303);
  });
  app.post(`${UI_PATH}/logout`, (c) => {
    signOut(c);
    return c.redirect(`${UI_PATH}/login`, 303);
  });

  app.use(UI_PATH, requireUiKey(keys));
  app.use(`${UI_PATH}/agents/*`, requireUiKey(keys));
  app.use(`${UI_PATH}/agents`, requireUiKey(keys));

  app.get(UI_PATH, (c) =>
    page(c, null, async () => {
      const scope = c.get("apiKey").scope;
      const prefix = scope?.value ?? "";
      const { agents, next } = await listAgents(deps, {
        scope,
        limit: AGENTS_PAGE,
        after: c.req.query("after"),
      });
      return <AgentsPage agents={agents} next={next} prefix={prefix} />;
    }),
  );
  // The "open agent" form: a typed id becomes the agent's page.
  app.get(`${UI_PATH}/agents`, (c) =>
    c.redirect(`${UI_PATH}/agents/${encodeURIComponent(c.req.query("agentId")?.trim() ?? "")}`, 303),
  );

  app.get(`${UI_PATH}/agents/:agentId`, (c) => {
    const agentId = agentParam(c);
    return page(c, agentId, async () => {
      const kind = MEMORY_KINDS.find((k) => k === c.req.query("kind"));
      const [stats, list] = await Promise.all([
        agentStats(deps, agentId),
        listMemories(deps, agentId, {
          limit: PAGE_SIZE,
          cursor: c.req.query("cursor") || undefined,
          kinds: kind ? [kind] : undefined,
        }),
      ]);
      return (
        <MemoriesPage
          agentId={agentId}
          stats={stats}
          memories={list.memories}
          nextCursor={list.nextCursor}
          kind={kind}
        />
      );
    });
  });

  app.get(`${UI_PATH}/agents/:agentId/memories/:id`, (c) => {
    const agentId = agentParam(c);
    return page(c, agentId, async () => {
      const m = await getMemory(deps, agentId, c.req.param("id"));
      const cited = await getMemories(deps, agentId, m.citations);
      return <MemoryPage m={m} cited={cited} />;
    });
  });

  app.get(`${UI_PATH}/agents/:agentId/retrieve`, (c) => {
    const agentId = agentParam(c);
    return page(c, agentId, async () => {
      const parsed = RetrieveQuery.safeParse(c.req.query());
      const defaults = RetrieveQuery.parse({});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const error = { code: "invalid_request", message: `${issue?.path.join(".")}: ${issue?.message}` };
        return <RetrievePage agentId={agentId} form={toForm(defaults)} results={null} error={error} />;
      }
      const q = parsed.data;
      const form = toForm(q);
      // The form shows first; a retrieve runs once submitted (any field present).
      if (Object.keys(c.req.query()).length === 0) {
        return <RetrievePage agentId={agentId} form={form} results={null} error={null} />;
      }
      try {
        const { memories } = await retrieve(deps, agentId, {
          query: q.query || undefined,
          k: q.k,
          weights: { recency: q.recency, importance: q.importance, relevance: q.relevance },
          now: q.now || undefined,
          relevance: q.mode,
          // Looking is not the agent acting: the browser touches nothing unless asked to.
          touch: q.touch === "1",
        });
        return <RetrievePage agentId={agentId} form={form} results={memories} error={null} />;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return <RetrievePage agentId={agentId} form={form} results={null} error={err} />;
      }
    });
  });
}

function toForm(q: z.infer<typeof RetrieveQuery>): RetrieveForm {
  return {
    query: q.query,
    k: q.k,
    recency: q.recency,
    importance: q.importance,
    relevance: q.relevance,
    now: q.now,
    mode: q.mode,
    touch: q.touch === "1",
  };
}
