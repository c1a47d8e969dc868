import { runAsProcess } from "./kit/process";

// `npm run import:docs -- <dir|file>... --agent <id>`: the same as `memstream import-docs` (./commands/import-docs.ts).
await runAsProcess(["import-docs", ...process.argv.slice(2)]);
