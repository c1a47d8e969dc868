// A worker thread's first module when the process runs the TypeScript sources (pool entry.ts):
// tsx's loader, registered in this thread (Node 20 does not carry a parent's `--import tsx` hooks
// into a worker), then the worker module itself. Never used by the bundle, which has no tsx.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.module);
