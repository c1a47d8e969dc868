import type { Memory } from "../memory/types";
import { UI_PATH } from "./session";

export const memoryHref = (agentId: string, id: string) =>
  `${UI_PATH}/agents/${encodeURIComponent(agentId)}/memories/${encodeURIComponent(id)}`;

/** Kind, importance and enrichment state of one memory. */
export function MemoryFacts(props: { m: Memory }) {
  const { m } = props;
  return (
    <>
      <span class={`kind kind-${m.kind}`}>{m.kind}</span>{" "}
      <span title="importance (1-10)">★ {m.importance ?? "–"}</span>{" "}
      <span class={`state-${m.status.importance}`} title="importance status">
        imp:{m.status.importance}
      </span>{" "}
      <span class={`state-${m.status.embedding}`} title="embedding status">
        emb:{m.status.embedding}
      </span>
    </>
  );
}

/** The memories a reflection cites, as links; deleted ones struck through. */
export function Citations(props: { m: Memory }) {
  const { m } = props;
  if (m.citations.length === 0) return <span class="muted">–</span>;
  const gone = new Set(m.missingCitations ?? []);
  return (
    <span class="citations">
      {m.citations.map((id) =>
        gone.has(id) ? (
          <span class="gone mono" title="deleted">
            {id}{" "}
          </span>
        ) : (
          <>
            <a class="mono citation" href={memoryHref(m.agentId, id)}>
              {id}
            </a>{" "}
          </>
        ),
      )}
    </span>
  );
}

/** One memory as a table row. */
export function MemoryRow(props: { m: Memory }) {
  const { m } = props;
  return (
    <tr class="memory" data-id={m.id} data-kind={m.kind}>
      <td class="mono">
        <a href={memoryHref(m.agentId, m.id)}>{m.id}</a>
        <div class="muted">{m.createdAt.replace("T", " ").slice(0, 19)}</div>
      </td>
      <td>
        <MemoryFacts m={m} />
      </td>
      <td>{m.description}</td>
      <td>
        <Citations m={m} />
      </td>
    </tr>
  );
}
