import { describe, expect, it } from "vitest";
import { cycles, importGraph, sourceFiles, specifiers } from "./support/import-graph";

// The folder tree is the architecture (../shared/STYLE.md): these rules keep it so. Imports are
// read with TypeScript's own pre-processor, type-only imports and re-exports included.
const graph = importGraph("src");

describe("imports in src/", () => {
  it("form no cycle, type-only imports included", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("src/mcp/ uses the domain and the API's schemas, never a route file", () => {
    const offenders = [...graph]
      .filter(([file]) => file.startsWith("mcp/"))
      .flatMap(([file, to]) => to.filter((t) => t.startsWith("api/routes/")).map((t) => `${file} → ${t}`));
    expect(offenders).toEqual([]);
  });

  it("the domain (src/memory/, src/ingest/) never imports the job system: it announces events", () => {
    const offenders = [...graph]
      .filter(([file]) => file.startsWith("memory/") || file.startsWith("ingest/"))
      .flatMap(([file, to]) => to.filter((t) => t.startsWith("jobs/")).map((t) => `${file} → ${t}`));
    expect(offenders).toEqual([]);
  });

  it("src/lib/ does not depend on the HTTP framework", () => {
    const offenders = sourceFiles("src/lib").flatMap((file) =>
      specifiers(file)
        .filter((s) => s === "hono" || s.startsWith("hono/") || s.startsWith("@hono/"))
        .map((s) => `${file} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe("the checks themselves", () => {
  it("see type-only imports", () => {
    // `import type { LessonSettings }` is the only link from this schema file to memory/.
    expect(graph.get("db/schema/agent-settings.ts")).toContain("memory/lessons/settings-shape.ts");
  });

  it("find a cycle, however long, and a file importing itself", () => {
    const g = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(cycles(g)).toEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
  });
});
