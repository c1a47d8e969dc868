// A TextWork thread (text-work.ts): serves textTasks to its pool.
import { serveTasks } from "../../lib/worker-pool/serve";
import { textTasks } from "./tasks";

serveTasks(textTasks);
