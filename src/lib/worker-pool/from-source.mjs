// A worker thread's first module when the process runs the TypeScript sources (pool entry.ts):
// the pool's thread set-up (before anything starts threads of its own), tsx's loader, registered
// in this thread (Node 20 does not carry a parent's `--import tsx` hooks into a worker), then the
// worker module itself. Never used by the bundle, which has no tsx.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";
import { setUpThread } from "./thread-setup.mjs";

// Its failure is told by serveTasks, which tries again (the bundle's threads start there).
if (workerData.setup) setUpThread(workerData.setup);
register();
await import(workerData.module);
