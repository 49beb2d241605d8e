// The neighbours column of a streamed build (issue 55, docs/design.md section 14) with memory flat in the input's size:
// the lots, in pack order, get their ordinals and their page rings are spilled keyed by their west edge; a sweep from
// west to east holds only the lots a north-south line crosses and measures each pair the one adjacency kernel would
// (src/packs/paged/adjacency.ts); each adjoining pair is spilled under both lots' ordinals and sorted, and the facts
// phase reads each lot's pairs as it writes the lot. Values equal neighbourTable's over the same rings (a unit test).
import { featureToGeometry } from "../../../src/geo/columns.ts";
import {
  boxesMeet,
  encodeNeighbours,
  MAX_NEAR,
  MIN_SHARED_M,
  nearBox,
  type OutlineBox,
  type OutlineRings,
  outlineBox,
  type PackNeighbour,
  pageRings,
  pairSharedM,
  UNITS_PER_DEGREE,
} from "../../../src/packs/paged/index.ts";
import { LotFrameDecoder } from "./lot-frame.ts";
import { type Frame, mergeDown, mergeRuns, SortScratch, Spill, sortChunk } from "./runs.ts";

/** Lots held at once by latitude band, so a lot is compared only with active lots near its own latitude. */
const BAND_DEG = 0.001;
// A pair frame's `other` marking its lot as crowded (more than MAX_NEAR lots near it: no pairs of its own).
const CROWDED = 0xffffffff;

export type NeighbourSweepJob = {
  /** The lot runs, merged in pack order (the facts phase merges them again). */
  runs: readonly string[];
  dir: string;
  /** Memory the build is not using meanwhile: half for spilling, half for the merges' read buffers. */
  buffer: Uint8Array;
  fanIn: number;
  readBufferBytes: number;
};

export type NeighbourRuns = { runs: string[]; lots: number; pairs: number; pairsCompared: number; crossing: number };

// Ring frames: ordinal u32, rings u32, then per ring its positions u32 and each position as two i32 (1e-7 degree).
function encodeRings(ordinal: number, rings: OutlineRings): Uint8Array {
  let bytes = 8;
  for (const r of rings) bytes += 4 + 8 * r.length;
  const out = new Uint8Array(bytes);
  const v = new DataView(out.buffer);
  v.setUint32(0, ordinal, true);
  v.setUint32(4, rings.length, true);
  let at = 8;
  for (const r of rings) {
    v.setUint32(at, r.length, true);
    at += 4;
    for (const [x, y] of r) {
      v.setInt32(at, Math.round(x * UNITS_PER_DEGREE), true);
      v.setInt32(at + 4, Math.round(y * UNITS_PER_DEGREE), true);
      at += 8;
    }
  }
  return out;
}

function decodeRings(p: Uint8Array): { ordinal: number; rings: [number, number][][] } {
  const v = new DataView(p.buffer, p.byteOffset, p.byteLength);
  const rings: [number, number][][] = [];
  let at = 8;
  for (let r = 0, n = v.getUint32(4, true); r < n; r++) {
    const ring: [number, number][] = [];
    for (let k = 0, m = v.getUint32(at, true); k < m; k++) {
      const x = v.getInt32(at + 4 + 8 * k, true) / UNITS_PER_DEGREE;
      ring.push([x, v.getInt32(at + 8 + 8 * k, true) / UNITS_PER_DEGREE]);
    }
    at += 4 + 8 * v.getUint32(at, true);
    rings.push(ring);
  }
  return { ordinal: v.getUint32(0, true), rings };
}

// Chunks sorted into runs, then merged down to at most fanIn runs.
function sortSpill(spill: Spill, job: NeighbourSweepJob, scratch: Uint8Array, pool: Uint8Array, prefix: string) {
  const sorter = new SortScratch(scratch);
  const runs = spill.finish().map((chunk, i) => {
    const run = `${job.dir}/${prefix}-${String(i).padStart(5, "0")}.run`;
    sortChunk(chunk, run, spill.buffer, (_, key) => key, sorter);
    return run;
  });
  return mergeDown(runs, job.dir, job.fanIn, job.readBufferBytes, pool);
}

type Active = { ordinal: number; box: OutlineBox; near: OutlineBox; rings: OutlineRings; count: number };

/** Sorted runs of pair frames keyed by ordinal: per adjoining pair one under each lot, and a crowded lot's mark. */
export function neighbourRuns(job: NeighbourSweepJob): NeighbourRuns {
  const half = job.buffer.length >> 1;
  const spillMem = job.buffer.subarray(0, half);
  const pool = job.buffer.subarray(half);
  // 1. Each lot's rings as its page will hold them, keyed by the west edge of the box it is compared within.
  const ringSpill = new Spill(job.dir, "rings", spillMem);
  const frames = new LotFrameDecoder();
  let lots = 0;
  for (const f of mergeRuns(job.runs, job.readBufferBytes, pool)) {
    const rings = pageRings(featureToGeometry(frames.decode(f.payload).cols, 0));
    const box = outlineBox(rings);
    // A lot without a position is in no other's box: no neighbours, as the kernel finds none.
    if (Number.isFinite(box[0])) ringSpill.add(nearBox(box)[0], lots, encodeRings(lots, rings));
    lots++;
  }
  const ringRuns = sortSpill(ringSpill, job, pool, pool, "rings");

  // 2. The sweep: a lot stays active until the sweep passes the east edge of its box grown by the tolerance, so every
  // pair the kernel compares (one lot's box meeting the other's grown box) meets here. Counts of lots near each lot
  // are final when it leaves, and mark it crowded past MAX_NEAR as the kernel skips it.
  const pairSpill = new Spill(job.dir, "pairs", spillMem);
  const pair = new Uint8Array(8);
  const pv = new DataView(pair.buffer);
  let seq = 0;
  const put = (ordinal: number, other: number, dm: number) => {
    pv.setUint32(0, other, true);
    pv.setUint32(4, dm, true);
    pairSpill.add(ordinal, seq++, pair);
  };
  const active = new Map<number, Active>();
  const bands = new Map<number, number[]>();
  // Leaving order: a binary heap of slots by their grown box's east edge.
  const heap: number[] = [];
  const eastOf = (slot: number) => (active.get(slot) as Active).near[2];
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j] as number, heap[i] as number]);
  const push = (slot: number) => {
    heap.push(slot);
    for (let i = heap.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (eastOf(heap[up] as number) <= eastOf(heap[i] as number)) break;
      swap(i, up);
      i = up;
    }
  };
  const pop = (): number => {
    const top = heap[0] as number;
    const last = heap.pop() as number;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        let m = i;
        if (l < heap.length && eastOf(heap[l] as number) < eastOf(heap[m] as number)) m = l;
        if (l + 1 < heap.length && eastOf(heap[l + 1] as number) < eastOf(heap[m] as number)) m = l + 1;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
    return top;
  };
  const bandsOf = (b: OutlineBox) => [Math.floor(b[1] / BAND_DEG), Math.floor(b[3] / BAND_DEG)] as const;
  let left = 0;
  const leave = (slot: number) => {
    const a = active.get(slot) as Active;
    if (a.count > MAX_NEAR) put(a.ordinal, CROWDED, 0);
    active.delete(slot);
    // Bands drop the slots that left every so often, so lots long passed hold no memory.
    if (++left % 4096 === 0) {
      for (const [k, list] of bands) {
        const kept = list.filter((s) => active.has(s));
        if (kept.length === 0) bands.delete(k);
        else bands.set(k, kept);
      }
    }
  };
  let pairs = 0;
  let pairsCompared = 0;
  let crossing = 0;
  let slot = 0;
  const seen = new Set<number>();
  for (const f of mergeRuns(ringRuns, job.readBufferBytes, pool) as Generator<Frame>) {
    const { ordinal, rings } = decodeRings(f.payload);
    const box = outlineBox(rings);
    const near = nearBox(box);
    while (heap.length > 0 && eastOf(heap[0] as number) < near[0]) leave(pop());
    const b: Active = { ordinal, box, near, rings, count: 1 };
    const [lo, hi] = bandsOf(near);
    seen.clear();
    for (let k = lo; k <= hi; k++) {
      for (const s of bands.get(k) ?? []) {
        const a = active.get(s);
        if (!a || seen.has(s)) continue;
        seen.add(s);
        const bNearA = boxesMeet(a.near, b.box);
        const aNearB = boxesMeet(b.near, a.box);
        if (bNearA) a.count++;
        if (aNearB) b.count++;
        // The kernel compares lower i with higher j when j's box meets i's grown box and i is not crowded.
        const [lower, higher, meets] = a.ordinal < b.ordinal ? [a, b, bNearA] : [b, a, aNearB];
        if (!meets || lower.count > MAX_NEAR) continue;
        pairsCompared++;
        const m = pairSharedM(lower.rings, higher.rings);
        if (m < MIN_SHARED_M) continue;
        const dm = Math.max(0, Math.round(m * 10));
        put(lower.ordinal, higher.ordinal, dm);
        put(higher.ordinal, lower.ordinal, dm);
        pairs++;
      }
    }
    active.set(slot, b);
    for (let k = lo; k <= hi; k++) {
      const list = bands.get(k);
      if (list) list.push(slot);
      else bands.set(k, [slot]);
    }
    push(slot++);
    crossing = Math.max(crossing, active.size);
  }
  while (heap.length > 0) leave(pop());
  return { runs: sortSpill(pairSpill, job, pool, pool, "pairs"), lots, pairs, pairsCompared, crossing };
}

/** Each lot's column value, asked for in pack order (0, 1, 2, ...), read from the sorted pair runs. */
export class NeighbourValues {
  private readonly frames: Generator<Frame>;
  private next: Frame | null = null;
  // Crowded lots seen so far: a pair whose lower lot is crowded is one the kernel never measured.
  private readonly crowded = new Set<number>();

  constructor(runs: readonly string[], readBufferBytes: number) {
    this.frames = mergeRuns(runs, readBufferBytes);
    this.advance();
  }

  private advance(): void {
    const r = this.frames.next();
    this.next = r.done ? null : r.value;
  }

  valueAt(ordinal: number): string | null {
    const found: PackNeighbour[] = [];
    let crowded = false;
    while (this.next !== null && this.next.key <= ordinal) {
      const v = new DataView(this.next.payload.buffer, this.next.payload.byteOffset, 8);
      if (this.next.key === ordinal) {
        const other = v.getUint32(0, true);
        if (other === CROWDED) crowded = true;
        else found.push({ ordinal: other, sharedM: v.getUint32(4, true) / 10 });
      }
      this.advance();
    }
    if (crowded) this.crowded.add(ordinal);
    const kept = found.filter((n) => (n.ordinal > ordinal ? !crowded : !this.crowded.has(n.ordinal)));
    return encodeNeighbours(ordinal, kept);
  }
}
