import { Layout } from "../layout";
import { UI_PATH } from "../session";

/** Pick an agent: the ids this key may see, or type one. */
export function AgentsPage(props: { agents: string[]; next: string | null; prefix: string }) {
  return (
    <Layout title="agents">
      <h1>Agents</h1>
      <form class="inline" method="get" action={`${UI_PATH}/agents`}>
        <label>
          agent id
          <input name="agentId" placeholder={props.prefix ? `${props.prefix}…` : "npc-42"} required />
        </label>
        <button type="submit">Open</button>
      </form>
      <h2>With memories{props.prefix && <span class="muted"> (ids starting with {props.prefix})</span>}</h2>
      {props.agents.length === 0 ? (
        <p class="muted">No agent has memories yet.</p>
      ) : (
        <ul id="agents">
          {props.agents.map((id) => (
            <li>
              <a class="agent" href={`${UI_PATH}/agents/${encodeURIComponent(id)}`}>
                {id}
              </a>
            </li>
          ))}
        </ul>
      )}
      {props.next && <a href={`${UI_PATH}?after=${encodeURIComponent(props.next)}`}>more agents →</a>}
    </Layout>
  );
}
