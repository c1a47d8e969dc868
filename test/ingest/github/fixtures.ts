import examples from "@octokit/webhooks-examples";

/**
 * A deep copy of GitHub's example payload for `event` (the first with `action`, when given), so a
 * test may change a field the examples lack (e.g. a merged pull request, a failed workflow run).
 */
export function example(event: string, action?: string): Record<string, unknown> {
  return exampleWhere(event, (e) => action === undefined || e.action === action);
}

/** A deep copy of the first example payload for `event` that satisfies `match`. */
export function exampleWhere(
  event: string,
  match: (payload: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  const definition = examples.find((d) => d.name === event);
  // The examples are typed per event; here they are plain JSON objects to look into and edit.
  const payloads = (definition?.examples ?? []) as unknown as Record<string, unknown>[];
  const found = payloads.find(match);
  if (!found) throw new Error(`no matching example for ${event}`);
  return structuredClone(found);
}

/** The nested object at `key`, for editing a copied example. */
export function child(payload: Record<string, unknown>, key: string): Record<string, unknown> {
  return payload[key] as Record<string, unknown>;
}
