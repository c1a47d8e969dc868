import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project root: the nearest folder above this module with a package.json. The same code runs
 * from `src/` (tsx, vitest) and bundled into `dist/` (`npm run build`), so files the code reads at
 * run time (migrations, prompt templates) are found from the root, never relative to the module.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

const ROOT = findRoot();

/** A path inside the project, e.g. `projectPath("migrations")`. */
export const projectPath = (...parts: string[]): string => join(ROOT, ...parts);
