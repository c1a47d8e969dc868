import { readmeCurls } from "./test/support/readme-curls";
for (const c of readmeCurls().filter((c) => c.section !== "Outcomes and lessons")) {
  const res = await fetch(`http://127.0.0.1:18811${c.path}`, { method: c.method, headers: c.headers, body: c.body === undefined ? undefined : JSON.stringify(c.body) });
  const t = await res.text();
  if (res.status >= 300) console.log(c.method, c.path, res.status, t.slice(0, 400));
}
