import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { App } from "../deps";
import { errorResponse } from "../errors";

export const DOCS_PATH = "/docs";

/**
 * The API reference at /docs: Swagger UI rendering /openapi.json, its assets served from the
 * installed `swagger-ui-dist` package, never a CDN, so it works offline and behind firewalls
 * (docs/adr/0012-api-docs-page.md). Public, like /openapi.json: it holds no data, and "Authorize"
 * takes an API key for trying requests.
 */
export const registerDocs = (app: App) => {
  app.get(DOCS_PATH, (c) => c.html(PAGE));
  app.get(`${DOCS_PATH}/assets/:file`, (c) => {
    assets ??= loadAssets();
    const asset = assets.get(c.req.param("file"));
    if (!asset) return errorResponse(c, "not_found", `no docs asset ${c.req.param("file")}`);
    return c.body(asset.body, 200, {
      "content-type": asset.type,
      "cache-control": "public, max-age=86400",
    });
  });
};

type Asset = { body: Uint8Array<ArrayBuffer>; type: string };

// Only these files are served (no path from the request reaches the file system).
const FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

// Read on the first request, not when the app is built (building it does no I/O).
let assets: Map<string, Asset> | null = null;

/** Reads the Swagger UI files once (about 1.5 MB), plus our own init script. */
function loadAssets(): Map<string, Asset> {
  const dir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(FILES)) {
    assets.set(name, { body: new Uint8Array(readFileSync(join(dir, name))), type });
  }
  assets.set("init.js", { body: new TextEncoder().encode(INIT), type: "text/javascript; charset=utf-8" });
  return assets;
}

// A script file rather than inline, so a strict Content-Security-Policy in front of us still works.
const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  persistAuthorization: true,
  displayOperationId: true,
  defaultModelsExpandDepth: 0,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>memstream API</title>
  <link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png">
  <link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/assets/init.js"></script>
</body>
</html>
`;
