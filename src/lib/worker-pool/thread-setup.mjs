// What a pool's thread does to itself when it starts (WorkerPoolOptions.thread). Plain JavaScript,
// so from-source.mjs can run it before it registers tsx: the loader-hooks thread that registering
// starts then inherits the name and the priority too.
import { readlinkSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";

/**
 * Names the calling thread and lowers its CPU priority, through Linux's /proc/thread-self: on
 * Linux, priority and name are a thread's own, and the threads it creates later (a model
 * runtime's) inherit both. Returns why it could not, or null. Where /proc/thread-self is absent
 * (not Linux) it changes nothing: `os.setPriority(0, …)` there would renice the whole process,
 * the API's thread included.
 * @param {import("./thread-setup.mjs").ThreadSetup} setup
 * @returns {string | null}
 */
export function setUpThread({ name, nice = 0 }) {
  if (!name && nice === 0) return null;
  let tid;
  try {
    tid = Number(readlinkSync("/proc/thread-self").split("/").pop()); // "<pid>/task/<tid>"
  } catch {
    return "no /proc/thread-self (not Linux): the threads keep the process's priority";
  }
  try {
    if (name) writeFileSync("/proc/thread-self/comm", name.slice(0, 15));
    if (nice !== 0) setPriority(tid, nice);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return null;
}
