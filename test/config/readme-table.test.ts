import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EnvSchema, loadConfig } from "../../src/config";

/**
 * The configuration table (docs/operations.md) is the user's view of src/config.ts: it must list exactly the
 * variables the schema reads, and each default it states must be the one the code applies.
 */

type Row = { variable: string; default: string };

/** Rows of the table under "## Configuration": `A` / `B` rows split into one row per variable. */
function readmeRows(): Row[] {
  const readme = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("\n## Configuration\n"));
  const table = section.slice(0, section.indexOf("\n## ", 1)).split("\n");
  const rows: Row[] = [];
  for (const line of table) {
    if (!line.startsWith("| `")) continue;
    const [names = "", defaults = ""] = line.split(" | ").map((cell) => cell.replace(/^\| /, "").trim());
    const variables: string[] = [];
    for (const [, name = ""] of names.matchAll(/`([A-Z_][A-Z0-9_]*)`/g)) {
      // `MEMSTREAM_RETRIEVE_EMBED_PENDING` / `_MS`: a suffix of the row's first name.
      variables.push(name.startsWith("_") ? `${variables[0]}${name}` : name);
    }
    // One "—" for several names: none of them has a default.
    const values = defaults === "—" ? variables.map(() => "—") : defaults.split(" / ");
    if (values.length !== variables.length)
      throw new Error(`README row ${names}: ${variables.length} names, ${values.length} defaults`);
    for (const [i, variable] of variables.entries())
      rows.push({ variable, default: (values[i] ?? "").trim() });
  }
  return rows;
}

/** A default cell that starts with one literal (`8787`, `` `memstream` (`{memstream}` with …) ``). */
const literalOf = (cell: string) => /^`([^`]*)`/.exec(cell)?.[1];

describe("README configuration table", () => {
  const rows = readmeRows();
  const shape = EnvSchema.shape as Record<string, (typeof EnvSchema.shape)[keyof typeof EnvSchema.shape]>;

  it("lists exactly the schema's variables, each once", () => {
    const listed = rows.map((r) => r.variable);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(shape).sort());
  });

  it.each(rows)("states $variable's default as the code applies it", (row) => {
    const field = shape[row.variable];
    if (!field) throw new Error(`${row.variable} is not in the schema`);
    const staticDefault = field.safeParse(undefined).data;
    const literal = literalOf(row.default);
    if (row.default === "—") {
      // No default: the variable is optional and unset means "not configured".
      expect(staticDefault, `${row.variable} has a default the README does not give`).toBeUndefined();
    } else if (literal !== undefined) {
      // Setting the variable to the stated default changes nothing in the parsed configuration.
      expect(loadConfig({ [row.variable]: literal })).toEqual(loadConfig({}));
    } else {
      // A default in words ("one per core") is computed at start-up: the schema must not hide a fixed one.
      expect(staticDefault, `${row.variable}: the README describes a computed default`).toBeUndefined();
    }
  });
});
