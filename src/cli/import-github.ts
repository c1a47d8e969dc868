import { runAsProcess } from "./kit/process";

// `npm run import:github -- owner/repo`: the same as `memstream import-github` (./commands/import-github.ts).
await runAsProcess(["import-github", ...process.argv.slice(2)]);
