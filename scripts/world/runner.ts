// Runs the world's tasks on worker threads (one per core) or, for small worlds and tests, in this thread.
import { Worker } from "node:worker_threads";
import type { QuadFeatures } from "./context-packs.ts";
import type { WorldContext } from "./context.ts";
import type { CellCensus } from "./lots.ts";
import type { Extent } from "./plan.ts";
import { WORKER_HEAP } from "./limits.ts";
import { WorldTasks } from "./tasks.ts";
import type { FromWorker, ToWorker, WorkerInit } from "./worker.ts";
import type { StopFeature } from "./world-map.ts";
import type { WalkData } from "./walk-index.ts";

export interface Runner {
  readonly threads: number;
  census(suburb: number): Promise<CellCensus[]>;
  setCentres(f: QuadFeatures): Promise<void>;
  // The world's bus stops, which every lot's nearest stop is measured to.
  setStops(stops: readonly StopFeature[]): Promise<void>;
  // The walking graph's distances, which every lot's walk is measured from.
  setWalk(data: WalkData): Promise<void>;
  build(suburb: number, extent: Extent, centres: number): Promise<number>;
  close(): Promise<void>;
}

/** Everything in this thread, one task at a time. */
export class InProcessRunner implements Runner {
  readonly threads = 1;
  private readonly tasks: WorldTasks;
  private readonly onLots: (n: number) => void;

  constructor(ctx: WorldContext, dir: string, box: readonly number[], onLots: (n: number) => void) {
    this.tasks = new WorldTasks(ctx, dir, 0, box);
    this.onLots = onLots;
  }
  async census(suburb: number): Promise<CellCensus[]> {
    return this.tasks.census(suburb);
  }
  async setCentres(f: QuadFeatures): Promise<void> {
    this.tasks.setCentres(f);
  }
  async setStops(stops: readonly StopFeature[]): Promise<void> {
    this.tasks.setStops(stops);
  }
  async setWalk(data: WalkData): Promise<void> {
    this.tasks.setWalk(data);
  }
  async build(suburb: number, extent: Extent, centres: number): Promise<number> {
    return this.tasks.build(suburb, extent, centres, this.onLots);
  }
  async close(): Promise<void> {
    this.tasks.close();
  }
}

type Task = { msg: ToWorker; resolve: (v: unknown) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; own: Task[]; current: Task | null };

/** Worker threads taking tasks from one queue as they fall idle (big suburbs first keeps them even). */
export class WorkerPool implements Runner {
  readonly threads: number;
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private failure: Error | null = null;
  private closing = false;

  constructor(threads: number, init: Omit<WorkerInit, "id">, onLots: (n: number) => void) {
    this.threads = threads;
    this.slots = Array.from({ length: threads }, (_, id) => {
      const worker = new Worker(new URL("./worker.ts", import.meta.url), {
        workerData: { ...init, id } satisfies WorkerInit,
        resourceLimits: WORKER_HEAP,
      });
      const slot: Slot = { worker, own: [], current: null };
      worker.on("message", (m: FromWorker) => {
        if (m.type === "lots") {
          onLots(m.n);
          return;
        }
        const t = slot.current;
        slot.current = null;
        if (m.type === "done") t?.resolve(m.result);
        else this.fail(new Error(`world worker ${id}: ${m.message}`));
        this.pump();
      });
      worker.on("error", (e) => this.fail(e));
      worker.on("exit", (code) => {
        if (code !== 0 && !this.closing) this.fail(new Error(`world worker ${id} exited with code ${code}`));
      });
      return slot;
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const s of this.slots) {
      s.current?.reject(e);
      s.current = null;
      for (const t of s.own.splice(0)) t.reject(e);
    }
    for (const t of this.queue.splice(0)) t.reject(e);
  }

  private pump(): void {
    for (const s of this.slots) {
      if (s.current) continue;
      const next = s.own.shift() ?? this.queue.shift();
      if (!next) continue;
      s.current = next;
      s.worker.postMessage(next.msg);
    }
  }

  private run(msg: ToWorker, slot?: Slot): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      (slot ? slot.own : this.queue).push({ msg, resolve, reject });
      this.pump();
    });
  }

  async census(suburb: number): Promise<CellCensus[]> {
    return (await this.run({ type: "census", suburb })) as CellCensus[];
  }
  async setCentres(features: QuadFeatures): Promise<void> {
    await Promise.all(this.slots.map((s) => this.run({ type: "centres", features }, s)));
  }
  async setStops(stops: readonly StopFeature[]): Promise<void> {
    await Promise.all(this.slots.map((s) => this.run({ type: "stops", stops }, s)));
  }
  async setWalk(data: WalkData): Promise<void> {
    await Promise.all(this.slots.map((s) => this.run({ type: "walk", data }, s)));
  }
  async build(suburb: number, extent: Extent, centres: number): Promise<number> {
    return (await this.run({ type: "build", suburb, extent, centres })) as number;
  }
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      await Promise.all(this.slots.map((s) => this.run({ type: "close" }, s)));
    } finally {
      await Promise.all(this.slots.map((s) => s.worker.terminate()));
    }
  }
}
