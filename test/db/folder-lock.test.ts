import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claimFolder, FolderInUse, folderOwner, lockPathOf } from "../../src/db/folder-lock";

// The embedded folder's lock (src/db/folder-lock.ts) with real processes: a dead owner's lock is
// taken over, a live one is not, and of several processes starting at once exactly one wins.
const root = mkdtempSync(join(tmpdir(), "memstream-lock-"));
let n = 0;
const folder = () => join(root, `data-${n++}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has exited (so nothing runs under it now). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("one owner per embedded data folder", () => {
  it("writes the owner's pid and URL, refuses a second claim naming it, and frees the folder on release", () => {
    const dir = folder();
    const lock = claimFolder(dir, "memstream server (npm start)");
    lock.announce("http://127.0.0.1:8787");
    expect(folderOwner(dir)).toMatchObject({ pid: process.pid, url: "http://127.0.0.1:8787", yields: false });
    expect(() => claimFolder(dir, "second")).toThrow(FolderInUse);
    expect(() => claimFolder(dir, "second")).toThrow(
      new RegExp(
        `in use by process ${process.pid} \\(memstream server \\(npm start\\) at http://127.0.0.1:8787\\)`,
      ),
    );
    lock.release();
    expect(folderOwner(dir)).toBeNull();
    claimFolder(dir, "after").release();
  });

  it("takes over the lock of a process that is gone, and of a reused pid (another start time)", () => {
    const dir = folder();
    const dead = deadPid();
    writeFileSync(
      lockPathOf(dir),
      JSON.stringify({ pid: dead, started: null, role: "killed", url: "http://x" }),
    );
    expect(folderOwner(dir)).toBeNull();
    const lock = claimFolder(dir, "next");
    expect(JSON.parse(readFileSync(lockPathOf(dir), "utf8"))).toMatchObject({
      pid: process.pid,
      role: "next",
    });
    lock.release();
    // This pid is alive, but the lock's start time is not this process's: its owner died and the pid was reused.
    writeFileSync(
      lockPathOf(dir),
      JSON.stringify({ pid: process.pid, started: "1", role: "before a reboot" }),
    );
    claimFolder(dir, "next").release();
  });

  it("a release never removes a lock another process took after this one was judged stale", () => {
    const dir = folder();
    const lock = claimFolder(dir, "first");
    writeFileSync(lockPathOf(dir), JSON.stringify({ pid: 1, started: null, role: "another owner" }));
    lock.release();
    expect(JSON.parse(readFileSync(lockPathOf(dir), "utf8"))).toMatchObject({ role: "another owner" });
  });

  it("of six processes claiming a folder with a stale lock at once, exactly one wins", async () => {
    const dir = folder();
    writeFileSync(lockPathOf(dir), JSON.stringify({ pid: deadPid(), started: null, role: "killed" }));
    const racers = Array.from({ length: 6 }, () =>
      spawn(process.execPath, ["--import", "tsx", "test/db/fixtures/claim-folder.ts", dir], {
        stdio: ["pipe", "pipe", "inherit"],
      }),
    );
    const answers = await Promise.all(
      racers.map(
        (p) =>
          new Promise<string>((resolve) => {
            let out = "";
            p.stdout.on("data", (d: Buffer) => {
              out += d.toString();
              if (out.endsWith("\n")) resolve(out.trim());
            });
          }),
      ),
    );
    for (const p of racers) p.stdin.end();
    expect(answers.filter((a) => a === "won")).toHaveLength(1);
    expect(answers.filter((a) => a === "lost")).toHaveLength(5);
  }, 60_000);
});
