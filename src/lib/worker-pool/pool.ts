import { type ResourceLimits, type TransferListItem, Worker } from "node:worker_threads";
import { DomainError, ErrorCode } from "../errors";
import type { Logger } from "../logger";
import { workerEntry } from "./entry";
import { POOL_WORKER, type PoolWorkerData, type ReplyMessage, type SerializedError } from "./protocol";
import type { Tasks } from "./serve";
import type { ThreadSetup } from "./thread-setup.mjs";

export type { Tasks } from "./serve";

export type WorkerPoolOptions = {
  /** Names the pool in errors. */
  name: string;
  /** The worker module, from the project root, as a TypeScript source: `src/…/x.worker.ts`. */
  entry: string;
  /** Threads at most; they start on demand and stay for the next task. */
  size: number;
  /** Run time one task may take (queue time not counted); past it its thread is terminated. */
  timeoutMs: number;
  /** Tasks that may wait for a thread; past it `run` rejects with `PoolBusy` at once. */
  maxQueue: number;
  /** Per-thread heap caps: a task that needs more ends its thread, not the process. */
  resourceLimits?: ResourceLimits;
  /** Time a new thread may take to load its module. */
  startTimeoutMs?: number;
  /** What each thread does to itself at start: its OS name, a lower CPU priority (Linux). */
  thread?: ThreadSetup;
  /** Where a thread's failed set-up is told, once per pool, at debug: the pool works without it. */
  logger?: Pick<Logger, "debug">;
};

/** A task ran past its budget; its thread was terminated. */
export class WorkTimeout extends Error {
  constructor(
    readonly pool: string,
    readonly task: string,
    readonly ms: number,
  ) {
    super(`${pool}: ${task} ran past its ${ms} ms budget`);
    this.name = "WorkTimeout";
  }
}

/** Every thread is busy and the queue is full. */
export class PoolBusy extends Error {
  constructor(readonly pool: string) {
    super(`${pool}: every worker thread is busy and ${pool}'s queue is full`);
    this.name = "PoolBusy";
  }
}

/** The thread running a task died (out of memory, a crash) or could not start; or the pool closed. */
export class WorkerFailed extends Error {
  constructor(
    readonly pool: string,
    message: string,
    readonly reason?: string,
  ) {
    super(`${pool}: ${message}`);
    this.name = "WorkerFailed";
  }
}

/** A task's error as thrown in its thread (a DomainError comes back as one). */
export class TaskFailed extends Error {
  constructor(error: SerializedError) {
    super(error.message);
    this.name = error.name;
    if (error.stack) this.stack = error.stack;
  }
}

type Input<T extends Tasks, K extends keyof T> = Parameters<T[K]>[0];
type Output<T extends Tasks, K extends keyof T> = Awaited<ReturnType<T[K]>>;

type Job = {
  id: number;
  task: string;
  input: unknown;
  transfer: readonly TransferListItem[];
  timeoutMs: number;
  resolve(output: unknown): void;
  reject(err: Error): void;
};

type Slot = { worker: Worker; ready: boolean; job: Job | null; timer: NodeJS.Timeout | null };

/**
 * A small pool of worker threads running the named tasks of one `*.worker.ts` module, so CPU-heavy
 * steps leave the event loop free: the API answers others while a thread works. Each task has a
 * time budget (its thread is terminated past it and replaced on demand), the queue is bounded,
 * and a thread that dies (heap cap, crash) fails only its own task. docs/adr/0021-worker-pool.md.
 */
export class WorkerPool<T extends Tasks> {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private setupTold = false;

  constructor(private readonly opts: WorkerPoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1) throw new Error(`${opts.name}: size must be ≥ 1`);
  }

  /** Runs `task` on `input` in a thread; rejects with the task's error, WorkTimeout, PoolBusy or WorkerFailed. */
  run<K extends keyof T & string>(
    task: K,
    input: Input<T, K>,
    options: { timeoutMs?: number; transfer?: readonly TransferListItem[] } = {},
  ): Promise<Output<T, K>> {
    if (this.closed) return Promise.reject(new WorkerFailed(this.opts.name, "the pool is closed"));
    if (this.queue.length >= this.opts.maxQueue) return Promise.reject(new PoolBusy(this.opts.name));
    return new Promise<Output<T, K>>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        task,
        input,
        transfer: options.transfer ?? [],
        timeoutMs: options.timeoutMs ?? this.opts.timeoutMs,
        resolve: resolve as (o: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /**
   * Starts every thread and resolves once all have loaded their module (rejects if one cannot), so
   * the first tasks do not wait for a thread's start-up.
   */
  async warm(): Promise<void> {
    while (this.slots.length < this.opts.size) this.spawn();
    await Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<void>((resolve, reject) => {
            if (slot.ready) return resolve();
            slot.worker.once("message", () => resolve());
            slot.worker.once("error", reject);
          }),
      ),
    );
  }

  /** Threads alive now (started or starting). */
  get threads(): number {
    return this.slots.length;
  }

  /** Rejects what waits, terminates every thread (tasks running in them reject). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new WorkerFailed(this.opts.name, "the pool closed"));
    await Promise.all(
      [...this.slots].map((s) => this.retire(s, new WorkerFailed(this.opts.name, "the pool closed"))),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = this.slots.find((s) => s.ready && !s.job);
      if (!idle) {
        const starting = this.slots.filter((s) => !s.ready).length;
        if (this.slots.length < this.opts.size && starting < this.queue.length) this.spawn();
        return;
      }
      this.start(idle, this.queue.shift() as Job);
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      void this.retire(slot, new WorkTimeout(this.opts.name, job.task, job.timeoutMs));
    }, job.timeoutMs);
    try {
      slot.worker.postMessage({ id: job.id, task: job.task, input: job.input }, job.transfer);
    } catch (err) {
      // Not cloneable: the caller's mistake, not the thread's.
      this.finish(slot);
      job.reject(err as Error);
    }
  }

  private finish(slot: Slot): Job | null {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    return job;
  }

  private spawn(): void {
    const { file, module } = workerEntry(this.opts.entry);
    const data: PoolWorkerData = { kind: POOL_WORKER, module, setup: this.opts.thread };
    const worker = new Worker(file, {
      workerData: data,
      resourceLimits: this.opts.resourceLimits,
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    this.slots.push(slot);
    // A thread that never loads its module fails the task waiting for it, not forever.
    slot.timer = setTimeout(
      () => void this.retire(slot, new WorkerFailed(this.opts.name, "a worker thread did not start in time")),
      this.opts.startTimeoutMs ?? 60_000,
    );
    worker.on("message", (m: ReplyMessage) => {
      if ("ready" in m) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.ready = true;
        if (m.setup && !this.setupTold) {
          this.setupTold = true;
          this.opts.logger?.debug("worker threads run without their set-up", {
            pool: this.opts.name,
            setup: this.opts.thread,
            reason: m.setup,
          });
        }
        worker.unref();
        this.dispatch();
        return;
      }
      if (slot.job?.id !== m.id) return;
      const job = this.finish(slot) as Job;
      if (m.ok) job.resolve(m.output);
      else job.reject(revive(m.error));
      this.dispatch();
    });
    worker.on("error", (err) => void this.retire(slot, this.failure(slot, err)));
    worker.on("exit", (code) =>
      this.retire(slot, new WorkerFailed(this.opts.name, `a worker thread exited (code ${code})`)),
    );
  }

  /** Why a thread's error ends its task: its heap cap, or a crash. */
  private failure(slot: Slot, err: Error): WorkerFailed {
    const code = (err as { code?: string }).code;
    if (code === "ERR_WORKER_OUT_OF_MEMORY")
      return new WorkerFailed(this.opts.name, "a task ran out of its thread's memory", "memory");
    return new WorkerFailed(
      this.opts.name,
      slot.ready ? `a worker thread failed: ${err.message}` : `a worker thread did not start: ${err.message}`,
      slot.ready ? "crash" : "start",
    );
  }

  /** Removes a slot (once), terminates its thread and fails its task with `why`. */
  private async retire(slot: Slot, why: Error): Promise<void> {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    const job = this.finish(slot);
    if (job) job.reject(why);
    // A thread that could not start fails the task that waited for it (no respawn loop).
    else if (!slot.ready && !this.closed) this.queue.shift()?.reject(why);
    if (!this.closed) this.dispatch();
    await slot.worker.terminate();
  }
}

/** A task's error, as a DomainError again when it was one (so the API maps it as it would inline). */
function revive(error: SerializedError): Error {
  const code = ErrorCode.safeParse(error.code);
  if (code.success) {
    const err = new DomainError(code.data, error.message, error.details);
    if (error.stack) err.stack = error.stack;
    return err;
  }
  return new TaskFailed(error);
}
