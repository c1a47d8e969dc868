import type { JobRequest } from "./catalog";

/** Where jobs are enqueued: BullMQ queues, or the in-process queue in zero-config mode. */
export interface JobSink {
  /** Enqueues jobs; one whose id is already queued or running is ignored. May throw (Redis down). */
  enqueue(jobs: JobRequest[]): Promise<void>;
}
