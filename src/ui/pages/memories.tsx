import type { AgentStats } from "../../memory/agent-stats";
import { describeCounts } from "../../memory/agent-stats";
import type { LlmBudgetStatus } from "../../memory/budget/budget";
import { MEMORY_KINDS, type Memory } from "../../memory/types";
import { Layout } from "../layout";
import { MemoryRow } from "../memory-parts";
import { UI_PATH } from "../session";

/** "LLM today: 48,210 of 200,000 tokens, 131 calls · resets 2026-02-14 00:00 UTC", and whether work waits. */
export function describeBudget(b: LlmBudgetStatus): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const of = (spent: number, limit: number | null, unit: string) =>
    limit === null ? `${n(spent)} ${unit}` : `${n(spent)} of ${n(limit)} ${unit}`;
  const resets = `${b.resetsAt.slice(0, 10)} ${b.resetsAt.slice(11, 16)} UTC`;
  const state = b.exhausted ? `budget spent: LLM work waits until ${resets}` : `resets ${resets}`;
  const keys = b.keys.map(
    (k) =>
      ` · key ${k.scope}: ${of(k.spent.tokens, k.limits.tokens, "tokens")}, ${of(k.spent.calls, k.limits.calls, "calls")}${k.exhausted ? " (spent)" : ""}`,
  );
  return `LLM today: ${of(b.spent.tokens, b.limits.tokens, "tokens")}, ${of(b.spent.calls, b.limits.calls, "calls")}${keys.join("")} · ${state}`;
}

/** One agent's stream, newest first, a page at a time. */
export function MemoriesPage(props: {
  agentId: string;
  stats: AgentStats;
  memories: Memory[];
  nextCursor: string | null;
  kind: string | undefined;
}) {
  const base = `${UI_PATH}/agents/${encodeURIComponent(props.agentId)}`;
  const { stats } = props;
  const more = new URLSearchParams();
  if (props.kind) more.set("kind", props.kind);
  if (props.nextCursor) more.set("cursor", props.nextCursor);
  return (
    <Layout title={props.agentId} agentId={props.agentId}>
      <h1>{props.agentId}</h1>
      <p id="stats">
        {describeCounts(stats)} · importance {stats.importance.pending} pending, {stats.importance.failed}{" "}
        failed · embedding {stats.embedding.pending} pending, {stats.embedding.failed} failed
      </p>
      {stats.llmBudget ? <p id="llm-budget">{describeBudget(stats.llmBudget)}</p> : null}
      <form class="inline" method="get" action={base}>
        <label>
          kind
          <select name="kind">
            <option value="">all</option>
            {MEMORY_KINDS.map((k) => (
              <option value={k} selected={props.kind === k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
        <a href={`${base}/retrieve`}>Retrieve…</a>
      </form>
      <table id="memories">
        <thead>
          <tr>
            <th>id · created</th>
            <th>kind · importance · status</th>
            <th>description</th>
            <th>cites</th>
          </tr>
        </thead>
        <tbody>
          {props.memories.map((m) => (
            <MemoryRow m={m} />
          ))}
        </tbody>
      </table>
      {props.memories.length === 0 && <p class="muted">No memories.</p>}
      {props.nextCursor && (
        <p>
          <a id="next-page" href={`${base}?${more}`}>
            next page →
          </a>
        </p>
      )}
    </Layout>
  );
}
