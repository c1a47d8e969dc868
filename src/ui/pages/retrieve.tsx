import { DEFAULT_PRESET } from "../../memory/retrieve/presets";
import { RELEVANCE_KINDS, type RelevanceKind } from "../../memory/retrieve/ranking/relevance/kinds";
import type { ScoredMemory } from "../../memory/types";
import { ErrorBox, Layout } from "../layout";
import { memoryHref } from "../memory-parts";
import { UI_PATH } from "../session";

export type RetrieveForm = {
  query: string;
  k: number;
  recency: number;
  importance: number;
  relevance: number;
  now: string;
  mode: RelevanceKind;
  touch: boolean;
};

const COMPONENTS = ["recency", "importance", "relevance"] as const;

/** Component scores as bars (each scaled to [0, 1] over the candidates) with the weighted total. */
function Bars(props: { m: ScoredMemory; weights: Record<(typeof COMPONENTS)[number], number> }) {
  return (
    <div class="bars">
      {COMPONENTS.map((c) => {
        const v = props.m.scores[c];
        return (
          <>
            <span>
              {c} ×{props.weights[c]}
            </span>
            <span class={`bar bar-${c}`} data-component={c} data-value={v.toFixed(4)}>
              <span style={`width:${(v * 100).toFixed(1)}%`} />
            </span>
            <span>{v.toFixed(2)}</span>
          </>
        );
      })}
    </div>
  );
}

/** The retrieve form (query, weights, now) and its ranked results. */
export function RetrievePage(props: {
  agentId: string;
  form: RetrieveForm;
  results: ScoredMemory[] | null;
  error: { code: string; message: string } | null;
}) {
  const f = props.form;
  const weights = { recency: f.recency, importance: f.importance, relevance: f.relevance };
  return (
    <Layout title={`retrieve · ${props.agentId}`} agentId={props.agentId}>
      <h1>Retrieve from {props.agentId}</h1>
      <form
        class="inline"
        method="get"
        action={`${UI_PATH}/agents/${encodeURIComponent(props.agentId)}/retrieve`}
      >
        <label style="flex:1">
          query
          <input name="query" value={f.query} placeholder="What is Isabella up to?" />
        </label>
        <label>
          k
          <input name="k" type="number" min="1" max="200" value={String(f.k)} style="width:60px" />
        </label>
        {COMPONENTS.map((c) => (
          <label>
            w {c}
            <input
              name={c}
              type="number"
              min="0"
              max="100"
              step="0.1"
              value={String(weights[c])}
              style="width:64px"
            />
          </label>
        ))}
        <label>
          now (ISO, empty = server clock)
          <input name="now" value={f.now} placeholder="2026-02-13T18:00:00Z" />
        </label>
        <label>
          relevance from
          <select name="mode">
            {RELEVANCE_KINDS.map((m) => (
              <option value={m} selected={f.mode === m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label>
          touch
          <input type="checkbox" name="touch" value="1" checked={f.touch} />
        </label>
        <button type="submit">Retrieve</button>
        <span class="muted">
          fields start from the service default ({DEFAULT_PRESET} preset); decay and its unit come from the
          agent's defaults, else that preset
        </span>
      </form>
      {props.error && <ErrorBox code={props.error.code} message={props.error.message} />}
      {props.results && (
        <table id="results">
          <thead>
            <tr>
              <th>#</th>
              <th>score</th>
              <th>components (scaled)</th>
              <th>memory</th>
            </tr>
          </thead>
          <tbody>
            {props.results.map((m, i) => (
              <tr class="result" data-id={m.id}>
                <td>{i + 1}</td>
                <td class="score">{m.score.toFixed(3)}</td>
                <td>
                  <Bars m={m} weights={weights} />
                </td>
                <td>
                  <a class="mono" href={memoryHref(props.agentId, m.id)}>
                    {m.id}
                  </a>{" "}
                  <span class={`kind kind-${m.kind}`}>{m.kind}</span>
                  <div>{m.description}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.results?.length === 0 && <p class="muted">No memories.</p>}
    </Layout>
  );
}
