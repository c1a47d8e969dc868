import { sql } from "drizzle-orm";
import type { z } from "zod";
import { queryRows } from "../../db/client";
import { Invalid } from "../../lib/errors";
import type { MemoryDeps } from "../deps";
import { agentEpoch, assertNotErased } from "../erasure/guard";
import type { MemoryWork } from "../events";
import type { Tx } from "../transaction";
import {
  type EndRecord,
  Header,
  PORTABLE_LIMITS,
  type PortableRecord,
  Record as RecordSchema,
} from "./format";
import { readLines } from "./lines";
import { type Reference, writeDocuments, writeMemories, writeReflectionRuns, writeSettings } from "./write";

/** Records per write: a batch's memories, vectors and derived rows are a few statements. */
export const IMPORT_BATCH = 500;
/** Pending enrichment announced after the commit; beyond it the sweep finds the rest (the database holds it). */
const ANNOUNCE_MAX = 10_000;

export type ImportReport = {
  lines: number;
  memories: { added: number; existing: number };
  vectors: number;
  documents: { added: number; existing: number };
  reflectionRuns: { added: number; existing: number };
  settings: "added" | "kept" | "none";
};

type Line = { n: number; text: string };

/** A 400 naming the line and the field (`line 12: memory.importance: …`). */
function invalidLine(n: number, field: string | null, message: string, extra?: Record<string, unknown>) {
  const where = field ? `line ${n}: ${field}` : `line ${n}`;
  return new Invalid(`${where}: ${message}`, { line: n, field: field ?? `line ${n}`, ...extra });
}

function parse<T>(schema: z.ZodType<T>, line: Line, prefix: string): T {
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (err) {
    throw invalidLine(line.n, null, `not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const type = (value as { type?: unknown } | null)?.type;
  const path = [typeof type === "string" && prefix === "" ? type : prefix, ...(issue?.path ?? []).map(String)]
    .filter(Boolean)
    .join(".");
  throw invalidLine(line.n, path || null, issue?.message ?? "invalid record", {
    issues: parsed.error.issues
      .slice(0, 10)
      .map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
  });
}

/**
 * Imports a stream written by `exportAgent` into `agentId` (docs/adr/0038): ids are kept, so every
 * reference means what it meant; a record whose id the agent already has is left as it is, so a
 * re-run adds nothing. Reads `chunks` line by line and writes a batch at a time, ALL in one
 * transaction: any bad line (or a reference that names no memory in the file or the agent) throws
 * `Invalid` naming its line and field, and nothing of the file stays. Only a batch and the
 * references not yet resolved are ever in Node.
 */
export async function importAgent(
  deps: Pick<MemoryDeps, "db" | "clock" | "announce">,
  agentId: string,
  chunks: AsyncIterable<Uint8Array | string>,
  batch = IMPORT_BATCH,
): Promise<ImportReport> {
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  const now = deps.clock.now();
  const announce: MemoryWork[] = [];
  const report = await deps.db.transaction(async (tx) => {
    // Shares the agent's lock to the commit: an erase waits for the import, or voids it (ADR 0027).
    await assertNotErased(tx, agentId, since);
    return importLines(tx, agentId, now, readLines(chunks, PORTABLE_LIMITS.lineBytes), batch, announce);
  });
  if (announce.length > 0) await deps.announce([{ kind: "memories.pending", items: announce }]);
  return report;
}

async function importLines(
  tx: Tx,
  agentId: string,
  now: Date,
  lines: AsyncIterable<Line>,
  batch: number,
  announce: MemoryWork[],
): Promise<ImportReport> {
  const report: ImportReport = {
    lines: 0,
    memories: { added: 0, existing: 0 },
    vectors: 0,
    documents: { added: 0, existing: 0 },
    reflectionRuns: { added: 0, existing: 0 },
    settings: "none",
  };
  let pending: Reference[] = [];
  let memories: { n: number; r: Extract<PortableRecord, { type: "memory" }> }[] = [];
  let others: { n: number; r: PortableRecord }[] = [];
  let headerSeen = false;
  let end: { n: number; counts: Omit<EndRecord, "type"> } | undefined;
  const read = { memories: 0, documents: 0, reflectionRuns: 0 };

  const flush = async () => {
    if (memories.length > 0) {
      const done = await writeMemories(tx, agentId, now, memories);
      report.memories.added += done.added.length;
      report.memories.existing += memories.length - done.added.length;
      report.vectors += done.vectors;
      pending = await resolve(tx, agentId, [...pending, ...done.references]);
      if (pending.length > PORTABLE_LIMITS.pendingReferences) {
        const p = pending[0] as Reference;
        throw invalidLine(
          p.line,
          p.field,
          `over ${PORTABLE_LIMITS.pendingReferences} references to memories not yet seen (first: ${p.id}); write referenced memories earlier in the file`,
        );
      }
      for (const w of done.enrich) if (announce.length < ANNOUNCE_MAX) announce.push(w);
      memories = [];
    }
    if (others.length > 0) {
      const docs = others.flatMap((o) => (o.r.type === "document" ? [o.r] : []));
      const runs = others.flatMap((o) => (o.r.type === "reflectionRun" ? [o.r] : []));
      const addedDocs = await writeDocuments(tx, agentId, docs);
      const addedRuns = await writeReflectionRuns(tx, agentId, runs);
      report.documents.added += addedDocs;
      report.documents.existing += docs.length - addedDocs;
      report.reflectionRuns.added += addedRuns;
      report.reflectionRuns.existing += runs.length - addedRuns;
      others = [];
    }
  };

  for await (const line of lines) {
    if (line.n > PORTABLE_LIMITS.lines)
      throw invalidLine(line.n, null, `over ${PORTABLE_LIMITS.lines} lines`);
    report.lines = line.n;
    if (!headerSeen) {
      const header = parse(Header, line, "header");
      headerSeen = true;
      if (header.settings)
        report.settings = (await writeSettings(tx, agentId, header.settings)) ? "added" : "kept";
      continue;
    }
    if (end) throw invalidLine(line.n, null, `a line after the end line (line ${end.n})`);
    const record = parse(RecordSchema, line, "");
    if (record.type === "end") {
      const { type: _, ...counts } = record;
      end = { n: line.n, counts };
      continue;
    }
    if (record.type === "memory") {
      read.memories++;
      memories.push({ n: line.n, r: record });
    } else {
      read[record.type === "document" ? "documents" : "reflectionRuns"]++;
      others.push({ n: line.n, r: record });
    }
    if (memories.length >= batch || others.length >= batch) await flush();
  }
  if (!headerSeen)
    throw new Invalid("line 1: the file is empty (a header line comes first)", { line: 1, field: "header" });
  if (!end) {
    throw invalidLine(report.lines + 1, "end", "the file ends without its end line: it was cut short", {
      field: "end",
    });
  }
  for (const k of ["memories", "documents", "reflectionRuns"] as const) {
    if (end.counts[k] !== read[k]) {
      throw invalidLine(end.n, `end.${k}`, `says ${end.counts[k]} but the file holds ${read[k]}`);
    }
  }
  await flush();
  const [first] = await resolve(tx, agentId, pending);
  if (first) {
    throw invalidLine(
      first.line,
      first.field,
      `names memory ${first.id}, which is neither in the file nor the agent's`,
      {
        id: first.id,
      },
    );
  }
  return report;
}

/** The references that still name no memory of the agent (one indexed lookup per batch). */
async function resolve(tx: Tx, agentId: string, refs: Reference[]): Promise<Reference[]> {
  if (refs.length === 0) return refs;
  const ids = [...new Set(refs.map((r) => r.id))];
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 1_000) {
    const chunk = ids.slice(i, i + 1_000);
    const list = sql.join(
      chunk.map((id) => sql`${id}`),
      sql`, `,
    );
    // Either tier holds memories (docs/adr/0044): a summary's members are archived.
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`SELECT id FROM memories WHERE agent_id = ${agentId} AND id IN (${list})
        UNION ALL SELECT id FROM memory_archive WHERE agent_id = ${agentId} AND id IN (${list})`,
    );
    for (const r of rows) found.add(r.id);
  }
  return refs.filter((r) => !found.has(r.id)).sort((a, b) => a.line - b.line);
}
