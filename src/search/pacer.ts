// Paces a long scan: counts the lots tested and yields to the event loop before a chunk would pass the bound.
import { nextTask } from "../lib/next-task.ts";
import { YIELD_EVERY_LOTS } from "./query.ts";

export class Pacer {
  private since = 0;
  /** The most lots tested between two yields, and the yields made. */
  most = 0;
  yields = 0;
  private readonly every: number;

  constructor(every = YIELD_EVERY_LOTS) {
    this.every = every;
  }

  /** Yields when the bound is reached; a caller then asks `left()` and tests that many without awaiting. */
  async ready(): Promise<void> {
    if (this.since < this.every) return;
    this.yields++;
    this.since = 0;
    await nextTask();
  }

  /** Lots that may be tested before the next yield (read after `ready()`, never across an await). */
  left(): number {
    return Math.max(0, this.every - this.since);
  }

  tested(n: number): void {
    this.since += n;
    if (this.since > this.most) this.most = this.since;
  }
}
