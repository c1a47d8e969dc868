/** What a pool's thread does to itself when it starts (WorkerPoolOptions.thread). */
export type ThreadSetup = {
  /** Its name in the OS (`top -H`, `/proc/<pid>/task/<tid>/comm`), at most 15 characters. */
  name?: string;
  /** Its nice value, 1..19 (a lower priority than the process's other threads); 0 leaves it. */
  nice?: number;
};

/** Names the calling thread and lowers its priority (Linux); why it could not, or null. */
export function setUpThread(setup: ThreadSetup): string | null;
