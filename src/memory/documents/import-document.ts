import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { documents, memories } from "../../db/schema";
import { Invalid } from "../../lib/errors";
import { createMemories, type NewMemoryInput } from "../create-memories";
import type { MemoryDeps } from "../deps";
import { type DerivedCounts, deleteDerived } from "../derived/delete-derived";
import { importanceGivenSql } from "../enrichment/reset";
import { agentEpoch, assertNotErased } from "../erasure/guard";
import { LIMITS } from "../limits";
import type { TextWork } from "../text/text-work";
import { inMemoryTransaction, type Tx } from "../transaction";
import { sectionsOf } from "./sections-of";
import type { DocumentFormat } from "./split";

export type DocumentInput = {
  /** Identity of the document within the agent (a path or URL); importing it again replaces it. */
  source: string;
  content: string;
  /** Default: from the source's extension (.html/.htm, .txt), else markdown. */
  format?: DocumentFormat;
  /** Default: the first level-1 heading. */
  title?: string;
  /** Token budget of one section (LIMITS.sectionTokens). */
  maxTokens?: number;
  /** Merged into every section's metadata (the import's own keys win). */
  metadata?: Record<string, unknown>;
  /** Caller-side importance of every section; otherwise each section is scored. */
  importance?: number;
  /** The document's own date (ISO 8601); default now. */
  createdAt?: string;
};

export type DocumentImport = {
  source: string;
  title: string | null;
  format: DocumentFormat;
  sections: number;
  tokens: number;
  /** Sections stored new, kept from the previous version (same text), and removed with it. */
  created: number;
  kept: number;
  deleted: number;
  /** Reflections and lessons deleted with the removed sections, per kind (derived/delete-derived.ts). */
  derived: DerivedCounts;
  /** True when the previous version was identical: nothing was written. */
  unchanged: boolean;
  importedAt: string;
};

export type DocumentDeps = MemoryDeps & { text: Pick<TextWork, "splitDocument"> };

/**
 * Imports a document as `document` memories, one per section, replacing the previous version of
 * the same source in ONE transaction under the source's row lock: no duplicates, no orphans, and
 * two imports of one source never interleave. A section whose text is unchanged keeps its memory
 * (id, times, importance, vector: nothing is paid again) with refreshed metadata; other new
 * sections are inserted and the old version's leftovers deleted.
 */
export async function importDocument(
  deps: DocumentDeps,
  agentId: string,
  input: DocumentInput,
): Promise<DocumentImport> {
  // Before the (slow) split: an import the agent's erase overtook writes nothing (409).
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  const format = input.format ?? formatOf(input.source);
  // In a worker thread: conversion and splitting are the CPU-heavy part of an import.
  const split = await deps.text.splitDocument({
    content: input.content,
    format,
    maxTokens: input.maxTokens ?? LIMITS.sectionTokens.default,
    maxChars: LIMITS.descriptionChars,
    ...(input.title ? { title: input.title } : {}),
  });
  if (split.sections.length > LIMITS.documentSections) {
    throw new Invalid(
      `the document splits into ${split.sections.length} sections, over the limit of ${LIMITS.documentSections}; raise maxTokens or split the document`,
      { field: "content", limit: LIMITS.documentSections },
    );
  }
  const inputs = sectionsOf(split, { ...input, format });
  const hash = createHash("sha256").update(JSON.stringify({ inputs })).digest("hex");
  const tokens = split.sections.reduce((n, s) => n + s.tokens, 0);
  const now = deps.clock.now();
  const base = { source: input.source, title: split.title, format, sections: inputs.length, tokens };

  return inMemoryTransaction(deps, async (memory, tx) => {
    await assertNotErased(tx, agentId, since);
    const previous = await lockDocument(tx, agentId, input.source, format, now);
    if (previous.contentHash === hash) {
      return {
        ...base,
        created: 0,
        kept: inputs.length,
        deleted: 0,
        derived: {},
        unchanged: true,
        importedAt: previous.importedAt.toISOString(),
      };
    }
    const old = await tx
      .select({ id: memories.id, description: memories.description })
      .from(memories)
      .where(and(...sectionsWhere(agentId, input.source)));
    const reusable = new Map<string, string[]>();
    for (const o of old) reusable.set(o.description, [...(reusable.get(o.description) ?? []), o.id]);

    const kept: { id: string; input: NewMemoryInput }[] = [];
    const fresh: NewMemoryInput[] = [];
    for (const i of inputs) {
      const id = reusable.get(i.description)?.shift();
      if (id) kept.push({ id, input: i });
      else fresh.push(i);
    }
    const leftover = [...reusable.values()].flat();
    await refreshKept(tx, agentId, kept, now, input.importance);
    for (let i = 0; i < leftover.length; i += 1000) {
      await tx
        .delete(memories)
        .where(and(eq(memories.agentId, agentId), inArray(memories.id, leftover.slice(i, i + 1000))));
    }
    // Sections gone from the new version take what was derived from them (delete-derived.ts).
    const derived = await deleteDerived(tx, agentId, leftover);
    await createMemories(memory, agentId, fresh);
    await tx
      .update(documents)
      .set({
        title: split.title,
        format,
        contentHash: hash,
        sections: inputs.length,
        tokens,
        importedAt: now,
        updatedAt: now,
      })
      .where(and(eq(documents.agentId, agentId), eq(documents.source, input.source)));
    return {
      ...base,
      created: fresh.length,
      kept: kept.length,
      deleted: leftover.length,
      derived,
      unchanged: false,
      importedAt: now.toISOString(),
    };
  });
}

/** The conditions that select a source's sections. */
export const sectionsWhere = (agentId: string, source: string) => [
  eq(memories.agentId, agentId),
  eq(memories.kind, "document"),
  sql`${memories.metadata} @> ${JSON.stringify({ source })}::jsonb`,
];

/** Creates the source's row if it is new, then locks it for the rest of the transaction. */
async function lockDocument(tx: Tx, agentId: string, source: string, format: DocumentFormat, now: Date) {
  await tx
    .insert(documents)
    .values({
      agentId,
      source,
      format,
      contentHash: "",
      sections: 0,
      tokens: 0,
      importedAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.agentId, agentId), eq(documents.source, source)))
    .for("update");
  if (!row) throw new Error(`document ${source} vanished under its own lock`);
  return row;
}

/** Kept sections get the new version's metadata (position, heading path) and importance hint. */
async function refreshKept(
  tx: Tx,
  agentId: string,
  kept: { id: string; input: NewMemoryInput }[],
  now: Date,
  importance?: number,
) {
  for (let i = 0; i < kept.length; i += 500) {
    const rows = kept
      .slice(i, i + 500)
      .map((k) => sql`(${k.id}::text, ${JSON.stringify(k.input.metadata)}::jsonb)`);
    const setImportance = importance === undefined ? sql`` : sql`, ${importanceGivenSql(importance)}`;
    await tx.execute(
      sql`UPDATE memories m SET metadata = x.meta, updated_at = ${now.toISOString()}::timestamptz${setImportance}
          FROM (VALUES ${sql.join(rows, sql`, `)}) AS x(id, meta) WHERE m.agent_id = ${agentId} AND m.id = x.id`,
    );
  }
}

/** The format a source's extension names; Markdown when it names none (plain text reads as Markdown). */
export function formatOf(source: string): DocumentFormat {
  const path = source.split(/[?#]/)[0]?.toLowerCase() ?? "";
  if (path.endsWith(".html") || path.endsWith(".htm")) return "html";
  if (path.endsWith(".txt")) return "text";
  return "markdown";
}
