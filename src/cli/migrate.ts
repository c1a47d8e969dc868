import { runAsProcess } from "./kit/process";

// `npm run db:migrate` (and `node dist/cli/migrate.js` in the image): the same as `memstream migrate`.
await runAsProcess(["migrate", ...process.argv.slice(2)]);
