import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { DomainError } from "../lib/errors";

/**
 * One owner per embedded data folder (docs/adr/0031-embedded-database-ownership.md). PGlite has no
 * lock of its own: two processes on one folder each acknowledged writes the other then overwrote,
 * and once the folder no longer opened. The owner's pid (with its start time, so a reused pid is not
 * taken for it) and, once it listens, its URL are in `<folder>.lock`, created with O_EXCL; a lock
 * whose process is gone is taken over.
 */

/** Who holds a folder: the process, what it is, and where it answers HTTP (once it listens). */
export type FolderOwner = {
  pid: number;
  /** Process start time (Linux: /proc/<pid>/stat field 22); null where it cannot be read. */
  started: string | null;
  role: string;
  /** Base URL of its HTTP API on this machine; null until it listens (or when it does not). */
  url: string | null;
  /** It hands the folder over on SIGUSR2 (the stdio MCP server, to a server started after it). */
  yields: boolean;
};

/** A held folder: say where it answers, then release it on close. */
export type FolderLock = {
  path: string;
  announce(url: string): void;
  release(): void;
};

/** Another live process holds the folder; the message names it and says what to do. */
export class FolderInUse extends DomainError {
  constructor(
    readonly dataDir: string,
    readonly owner: FolderOwner,
  ) {
    const where = owner.url ? ` at ${owner.url}` : "";
    // A stdio MCP server serves no HTTP: a server started on the folder is what both can use.
    const use = owner.yields
      ? "start `npm start` on it (that process hands the folder over and sends its calls there, and so does this one)"
      : "use it (it serves the same memories)";
    super(
      "unavailable",
      `the embedded database folder ${dataDir} is in use by process ${owner.pid} (${owner.role}${where}). ` +
        `One process owns a folder: stop that one first, or ${use}, ` +
        "or set MEMSTREAM_DATA_DIR to another folder, or DATABASE_URL to a PostgreSQL server that both can share.",
    );
  }
}

export const lockPathOf = (dataDir: string) => `${resolve(dataDir)}.lock`;

/** When a process started, from /proc; null elsewhere or when it is gone. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start after the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function alive(owner: FolderOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // Same pid, other start time: the owner died and its pid was reused (e.g. after a reboot).
  const started = startTimeOf(owner.pid);
  return owner.started === null || started === null || started === owner.started;
}

function read(path: string): FolderOwner | null {
  try {
    const o = JSON.parse(readFileSync(path, "utf8")) as Partial<FolderOwner>;
    if (typeof o.pid !== "number") return null;
    return {
      pid: o.pid,
      started: o.started ?? null,
      role: o.role ?? "unknown",
      url: o.url ?? null,
      yields: o.yields === true,
    };
  } catch {
    return null;
  }
}

/** The live owner of a folder, or null when it is free (no lock, or its process is gone). */
export function folderOwner(dataDir: string): FolderOwner | null {
  const owner = read(lockPathOf(dataDir));
  return owner && alive(owner) ? owner : null;
}

/** Writes beside the lock and renames over it, so a reader never sees half a file. */
function rewrite(path: string, owner: FolderOwner) {
  const scratch = `${path}.${process.pid}`;
  const fd = openSync(scratch, "w");
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  renameSync(scratch, path);
}

function create(path: string, owner: FolderOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the folder for this process or throws `FolderInUse`. A stale lock is removed under a
 * second O_EXCL file, so two processes finding it stale at once cannot both take the folder.
 */
export function claimFolder(dataDir: string, role: string, yields = false): FolderLock {
  const path = lockPathOf(dataDir);
  const me: FolderOwner = { pid: process.pid, started: startTimeOf(process.pid), role, url: null, yields };
  for (let attempt = 0; attempt < 30; attempt++) {
    if (create(path, me)) return held(path, me);
    const owner = read(path);
    // Unreadable: being written this instant, or left empty by a crash mid-write (old enough).
    if (!owner && Date.now() - mtimeOf(path) < 2_000) {
      pause(100);
      continue;
    }
    if (owner && alive(owner)) throw new FolderInUse(dataDir, owner);
    const steal = `${path}.takeover`;
    if (Date.now() - mtimeOf(steal) > 10_000) rmSync(steal, { force: true });
    if (!create(steal, me)) continue;
    try {
      const again = read(path);
      // Still the same stale owner (not one that took it meanwhile): remove it.
      if (again?.pid === owner?.pid && again?.started === owner?.started) rmSync(path, { force: true });
    } finally {
      rmSync(steal, { force: true });
    }
  }
  const owner = folderOwner(dataDir);
  if (owner) throw new FolderInUse(dataDir, owner);
  throw new Error(
    `cannot take the lock ${path}: it keeps changing; is another process starting on ${dataDir}?`,
  );
}

/** Start-up is synchronous here; a short blocking wait between attempts is fine. */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function held(path: string, me: FolderOwner): FolderLock {
  let released = false;
  const exitHook = () => release();
  function release() {
    if (released) return;
    released = true;
    process.off("exit", exitHook);
    // Only our own lock: never one a later owner took after ours was judged stale.
    if (read(path)?.pid === me.pid) rmSync(path, { force: true });
  }
  // A process that exits without closing (process.exit after a fatal error) frees the folder too.
  process.on("exit", exitHook);
  return {
    path,
    announce(url) {
      me.url = url;
      rewrite(path, me);
    },
    release,
  };
}

/** Asks an owner that yields to hand the folder over; false when it cannot be asked. */
export function askToYield(owner: FolderOwner): boolean {
  if (!owner.yields || process.platform === "win32") return false;
  try {
    process.kill(owner.pid, "SIGUSR2");
    return true;
  } catch {
    return false;
  }
}
