import type { NewMemoryInput } from "../create-memories";
import type { DocumentFormat, Section } from "./split";

/** Sections → memory inputs: kind `document`, with source, title, heading path and position in metadata. */
export function sectionsOf(
  split: { title: string | null; sections: Section[] },
  input: {
    source: string;
    format: DocumentFormat;
    metadata?: Record<string, unknown>;
    importance?: number;
    createdAt?: string;
  },
): NewMemoryInput[] {
  return split.sections.map((s, position) => ({
    description: s.description,
    kind: "document" as const,
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    ...(input.importance !== undefined ? { importance: input.importance } : {}),
    metadata: {
      ...input.metadata,
      source: input.source,
      title: split.title,
      format: input.format,
      headingPath: s.headingPath,
      position,
      sections: split.sections.length,
    },
  }));
}
