// A BodyWork thread (body-work.ts): parses and validates large request bodies off the event loop.
import { serveTasks } from "../lib/worker-pool/serve";
import { bodyTasks } from "./body-tasks";

serveTasks(bodyTasks);
