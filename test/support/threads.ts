import { readdirSync, readFileSync } from "node:fs";

/** This process's threads (Linux): each one's id, name (comm) and nice value, from /proc/self/task. */
export function processThreads(): { tid: number; name: string; nice: number }[] {
  const out: { tid: number; name: string; nice: number }[] = [];
  for (const tid of readdirSync("/proc/self/task").map(Number)) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // "tid (comm) state …": a name may hold spaces and parentheses, so fields count from the last ")".
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.push({ tid, name, nice: Number(fields[16]) }); // stat(5) field 19; fields[0] is field 3
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}
