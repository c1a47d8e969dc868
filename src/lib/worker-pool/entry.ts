import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { projectPath } from "../paths";

// This module is TypeScript when the process runs the sources (tsx: `npm start`, `npm run dev`;
// vitest) and JavaScript when it runs the bundle (`npm run build`: dist/, what the image runs).
const FROM_SOURCE = import.meta.url.endsWith(".ts");

// The folder a bundle was built into, set by the bundler where it is not dist/: the stdio MCP
// server's own bundle (bin/memstream-mcp.js) defines it; `npm run build` leaves it undefined.
declare const __MEMSTREAM_BUNDLE_DIR__: string | undefined;
const BUNDLE_DIR =
  typeof __MEMSTREAM_BUNDLE_DIR__ === "string" ? __MEMSTREAM_BUNDLE_DIR__ : projectPath("dist");

/**
 * How a thread runs a worker module (`src/…/x.worker.ts`, or `test/…` in tests). Bundled: the
 * built `dist/…/x.worker.js` or the MCP bundle's (both builds make every `*.worker.ts` an entry point). From
 * the sources: from-source.mjs, which registers tsx in the thread and imports the `.ts` file.
 */
export function workerEntry(source: string): { file: URL; module: string } {
  if (!/^(src|test)\/.+\.worker\.ts$/.test(source)) throw new Error(`not a worker module: ${source}`);
  if (FROM_SOURCE) {
    return {
      file: new URL("./from-source.mjs", import.meta.url),
      module: pathToFileURL(projectPath(source)).href,
    };
  }
  if (!source.startsWith("src/")) throw new Error(`only src/ is bundled: ${source}`);
  const built = pathToFileURL(join(BUNDLE_DIR, source.replace(/^src\//, "").replace(/\.ts$/, ".js")));
  return { file: built, module: built.href };
}
