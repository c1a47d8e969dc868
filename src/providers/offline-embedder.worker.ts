// An offline embedder thread (offline-embedder.ts): serves the model's task to its pool.
import { serveTasks } from "../lib/worker-pool/serve";
import { offlineModelTasks } from "./offline-model";

serveTasks(offlineModelTasks);
