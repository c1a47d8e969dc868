import { runAsProcess } from "./kit/process";

// `memstream <command>` (bin/memstream.js): every command is in ./commands, `memstream --help` lists them.
await runAsProcess(process.argv.slice(2));
