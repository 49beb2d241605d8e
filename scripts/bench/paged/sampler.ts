// Peak memory as the issue counts it: V8 heap in use plus array buffers, sampled with and without a collection first.

export type MemoryPeaks = {
  // heapUsed + arrayBuffers right after global.gc(): what is retained.
  retained: number;
  // The same without collecting first: retained plus garbage not yet collected.
  live: number;
  samples: number;
};

const used = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const settle = () => new Promise<void>((r) => setTimeout(r, 1));

// Array buffers are freed a task or more after the collection that finds them dead: collect until they stop falling.
/** heapUsed + arrayBuffers after a full collection (needs node --expose-gc). */
export async function retainedNow(): Promise<number> {
  let last = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 10; k++) {
    globalThis.gc?.();
    await settle();
    const ab = process.memoryUsage().arrayBuffers;
    if (ab >= last) break;
    last = ab;
  }
  return used();
}

export class Sampler {
  retained = 0;
  live = 0;
  samples = 0;

  /** A cheap sample, garbage included. */
  sample(): void {
    const u = used();
    if (u > this.live) this.live = u;
  }

  /** Collects, then samples what is retained. */
  async collect(): Promise<void> {
    this.sample();
    const r = await retainedNow();
    this.samples++;
    if (r > this.retained) this.retained = r;
  }

  peaks(): MemoryPeaks {
    return { retained: this.retained, live: this.live, samples: this.samples };
  }
}

export const mib = (n: number): number => n / 2 ** 20;
