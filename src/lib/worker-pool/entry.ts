import { pathToFileURL } from "node:url";
import { projectPath } from "../paths";

// This module is TypeScript when the process runs the sources (tsx: `npm start`, `npm run dev`;
// vitest) and JavaScript when it runs the bundle (`npm run build`: dist/, what the image runs).
const FROM_SOURCE = import.meta.url.endsWith(".ts");

/**
 * How a thread runs a worker module (`src/…/x.worker.ts`, or `test/…` in tests). Bundled: the
 * built `dist/…/x.worker.js` (scripts/build.mjs makes every `*.worker.ts` an entry point). From
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
  const built = pathToFileURL(projectPath(source.replace(/^src\//, "dist/").replace(/\.ts$/, ".js")));
  return { file: built, module: built.href };
}
