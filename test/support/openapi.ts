/**
 * The operations of the served `/openapi.json`, for tests that cover every route (documented
 * errors, fuzz, tenancy, docs): a route added later is covered without anyone listing it.
 */

export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  example?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  additionalProperties?: boolean | Schema;
  format?: string;
};

export type Parameter = { name: string; in: "path" | "query" | "header"; required?: boolean; schema: Schema };
type Media = { schema?: Schema; example?: unknown };

export type OperationObject = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
};

export type OpenApiDoc = {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, Schema> };
};

export type Operation = {
  method: string;
  /** The templated path, e.g. `/v1/agents/{agentId}/memories/{id}`. */
  path: string;
  op: OperationObject;
  /** `METHOD /path`, for messages. */
  name: string;
};

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation of the document. */
export function operations(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        op,
        name: `${method.toUpperCase()} ${path}`,
      })),
  );
}

/** Fetches the document from the real app. */
export async function loadDoc(app: {
  request(path: string): Response | Promise<Response>;
}): Promise<OpenApiDoc> {
  const res = await app.request("/openapi.json");
  if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
  return (await res.json()) as OpenApiDoc;
}

/** Well-formed ids for the outgoing-event paths (`{subscriptionId}`, `{deliveryId}`) that name nothing. */
export const EVENT_IDS = {
  subscriptionId: "sub_00000000000000000000",
  deliveryId: "evd_00000000000000000000",
};

/** The path with its `{params}` filled (URL-encoded) from `values`; a missing value throws. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return encodeURIComponent(v);
  });
}

/** Names of the path parameters of a templated path. */
export const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** Resolves a `#/components/schemas/X` reference (once; schemas here are not recursive). */
export function resolve(doc: OpenApiDoc, schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")];
}

/** The JSON request body's documented example, if the operation takes one. */
export function requestExample(doc: OpenApiDoc, op: OperationObject): unknown {
  const media =
    op.requestBody?.content["application/json"] ?? Object.values(op.requestBody?.content ?? {})[0];
  if (!media) return undefined;
  return media.example ?? resolve(doc, media.schema)?.example;
}

/** The media type of an operation's request body when it is not JSON (the import's JSON Lines), else undefined. */
export function otherMediaType(op: OperationObject): string | undefined {
  const types = Object.keys(op.requestBody?.content ?? {});
  return types.includes("application/json") ? undefined : types[0];
}

/** Documented response statuses of an operation. */
export const documentedStatuses = (op: OperationObject) => Object.keys(op.responses).map(Number);

/** `?name=example&…` for the operation's required query parameters (empty when it has none). */
export function requiredQuery(op: OperationObject): string {
  const params = (op.parameters ?? []).filter((p) => p.in === "query" && p.required);
  const missing = params.filter((p) => p.schema.example === undefined).map((p) => p.name);
  if (missing.length > 0)
    throw new Error(`required query parameters without an example: ${missing.join(", ")}`);
  const q = new URLSearchParams(params.map((p): [string, string] => [p.name, String(p.schema.example)]));
  return params.length > 0 ? `?${q}` : "";
}
