/**
 * Namespaces ↔ memstream agent ids. A namespace is one agent's stream: `["memories", "user-1"]`
 * is agent `langgraph:memories/user-1` (with the default prefix). Agent ids allow
 * `[A-Za-z0-9._:@/-]`, so a label's other characters (and `/`, the separator, and `@`, the escape)
 * are written `@` + four hex digits of their UTF-16 code unit: the mapping is one to one.
 */

const SAFE = /[A-Za-z0-9._-]/;

/** The agent id holding `namespace`'s items. */
export function agentIdOf(prefix: string, namespace: string[]): string {
  const escapeLabel = (label: string) => {
    let out = "";
    for (let i = 0; i < label.length; i++) {
      const ch = label[i] as string;
      out += SAFE.test(ch) ? ch : `@${label.charCodeAt(i).toString(16).padStart(4, "0")}`;
    }
    return out;
  };
  return `${prefix}${namespace.map(escapeLabel).join("/")}`;
}

/** The agent that lists the namespaces a store has written (one memory per namespace). */
export const registryAgentOf = (prefix: string) => `${prefix.replace(/[:/]+$/, "")}@namespaces`;

/** Whether `namespace` matches a `listNamespaces` condition (`*` matches any one label). */
export function matches(condition: { matchType: "prefix" | "suffix"; path: string[] }, namespace: string[]) {
  const { path } = condition;
  if (path.length > namespace.length) return false;
  const offset = condition.matchType === "prefix" ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === "*" || namespace[offset + i] === label);
}

/** Whether `namespace` lies under `prefix` (every namespace lies under `[]`). */
export const under = (prefix: string[], namespace: string[]) =>
  prefix.length <= namespace.length && prefix.every((label, i) => namespace[i] === label);
