import type { Memory } from "../../memory/types";
import { Layout } from "../layout";
import { Citations, MemoryFacts, MemoryRow } from "../memory-parts";

/** One memory; a reflection also shows the memories it cites. */
export function MemoryPage(props: { m: Memory; cited: Memory[] }) {
  const { m } = props;
  return (
    <Layout title={m.id} agentId={m.agentId}>
      <h1>{m.id}</h1>
      <p>
        <MemoryFacts m={m} />
      </p>
      <p id="description" style="font-size:16px">
        {m.description}
      </p>
      <table>
        <tbody>
          <tr>
            <th>created</th>
            <td>{m.createdAt}</td>
          </tr>
          <tr>
            <th>last accessed</th>
            <td>{m.lastAccessedAt}</td>
          </tr>
          <tr>
            <th>embedding model</th>
            <td>{m.embeddingModel ?? "–"}</td>
          </tr>
          <tr>
            <th>metadata</th>
            <td class="mono">{JSON.stringify(m.metadata)}</td>
          </tr>
          <tr>
            <th>cites</th>
            <td>
              <Citations m={m} />
            </td>
          </tr>
        </tbody>
      </table>
      {m.citations.length > 0 && (
        <>
          <h2>Cited memories</h2>
          <table id="cited">
            <tbody>
              {props.cited.map((c) => (
                <MemoryRow m={c} />
              ))}
            </tbody>
          </table>
          {(m.missingCitations?.length ?? 0) > 0 && (
            <p class="muted">{m.missingCitations?.length} cited memories have been deleted since.</p>
          )}
        </>
      )}
    </Layout>
  );
}
