import { runAsProcess } from "./kit/process";

// `npm run backfill -- --model <id>`: the same as `memstream backfill` (./commands/backfill.ts).
await runAsProcess(["backfill", ...process.argv.slice(2)]);
