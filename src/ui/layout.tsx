import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { UI_PATH } from "./session";

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:10px 20px;display:flex;gap:16px;align-items:center}
header a{color:#cfd8ff} main{padding:16px 20px;max-width:1100px}
a{color:#2747c9} h1{font-size:20px;margin:4px 0 12px} h2{font-size:16px;margin:18px 0 8px}
table{border-collapse:collapse;width:100%;background:#fff} td,th{padding:6px 8px;border-bottom:1px solid #e3e6ec;text-align:left;vertical-align:top}
th{font-weight:600;background:#eef0f4} .muted{color:#667085} .mono{font-family:ui-monospace,monospace;font-size:12px}
.kind{display:inline-block;padding:1px 6px;border-radius:8px;font-size:12px;background:#e7ecff}
.kind-reflection{background:#fff1c7} .kind-plan{background:#dff5e3}
.state-pending{color:#b26b00} .state-failed{color:#c0262d} .state-ready{color:#2e7d32}
form.inline{display:flex;flex-wrap:wrap;gap:10px;align-items:end;background:#fff;padding:10px;border:1px solid #e3e6ec}
form.inline label{display:flex;flex-direction:column;font-size:12px;color:#475467}
input,select{font:inherit;padding:4px 6px} button{font:inherit;padding:5px 12px;cursor:pointer}
.bars{display:grid;grid-template-columns:110px 160px 40px;gap:2px 6px;align-items:center;font-size:12px}
.bar{height:9px;background:#e3e6ec;border-radius:3px;overflow:hidden} .bar>span{display:block;height:100%}
.bar-recency>span{background:#5b8def} .bar-importance>span{background:#f0a73a} .bar-relevance>span{background:#47b37a}
.error{background:#fde8e8;border:1px solid #f5b5b5;padding:10px;margin:10px 0}
.gone{text-decoration:line-through;color:#98a2b3}
`;

/** The page shell every /ui page renders into. */
export function Layout(props: { title: string; children: Child; agentId?: string }) {
  const agentBase = props.agentId ? `${UI_PATH}/agents/${encodeURIComponent(props.agentId)}` : null;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{`${props.title} · memstream`}</title>
        {/* A constant of ours, not input: raw, so selectors like `a>b` are not escaped. */}
        <style>{raw(CSS)}</style>
      </head>
      <body>
        <header>
          <strong>memstream</strong>
          <a href={UI_PATH}>agents</a>
          {agentBase && <a href={agentBase}>memories</a>}
          {agentBase && <a href={`${agentBase}/retrieve`}>retrieve</a>}
          <span style="flex:1" />
          <form method="post" action={`${UI_PATH}/logout`} style="margin:0">
            <button type="submit">sign out</button>
          </form>
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/** An error the page explains instead of the JSON envelope. */
export function ErrorBox(props: { code: string; message: string }) {
  return (
    <div class="error" role="alert">
      <strong>{props.code}</strong>: {props.message}
    </div>
  );
}
