// The overview's per-cell zone counts for a streamed build: a table of bounded size, spilled to a sorted run whenever
// it fills, the runs merged (counts of a key summed) when the overview is cut.
//
// The cells grow with the cadastre's area (about 0.1 per lot); held in memory they were the one part of the build
// that grew with its input. Lots arrive in Hilbert order, so a cell's lots mostly fall in one run.
import { join } from "node:path";
import { CountTable, type KeyCounts } from "../../../src/packs/paged/index.ts";
import { FileWriter, FRAME_HEADER, mergeDown, mergeRuns } from "./runs.ts";

export type SpilledCountsOptions = {
  // Keys held in memory before a spill (default 2^14: about 0.5 MiB with the table's slack and the sort).
  keys?: number;
  fanIn: number;
  readBufferBytes: number;
  // Where the merge reads through (runs.ts mergeRuns): free by the time the overview is cut.
  pool?: Uint8Array;
};

const DEFAULT_KEYS = 1 << 14;

export class SpilledCounts implements KeyCounts {
  private readonly dir: string;
  private readonly opts: SpilledCountsOptions;
  private readonly limit: number;
  private readonly table = new CountTable();
  private readonly runs: string[] = [];

  // `dir` is these counts' own: runs and merges name their files there.
  constructor(dir: string, opts: SpilledCountsOptions) {
    this.dir = dir;
    this.opts = opts;
    this.limit = Math.max(16, opts.keys ?? DEFAULT_KEYS);
  }

  /** Runs spilled so far. */
  get spilled(): number {
    return this.runs.length;
  }

  add(key: number): void {
    // Spilled before the table would grow (it grows on any add once half full, a known key's too).
    if (this.table.size >= this.limit) this.spill();
    this.table.add(key);
  }

  // One run: the table's keys ascending, each frame's payload its count (u32).
  private spill(): void {
    const w = new FileWriter(join(this.dir, `counts-${String(this.runs.length).padStart(5, "0")}.run`), 64 << 10);
    const frame = new Uint8Array(FRAME_HEADER + 4);
    const v = new DataView(frame.buffer);
    v.setUint32(0, 4, true);
    this.table.sorted((key, n) => {
      v.setUint32(4, 0, true);
      v.setFloat64(8, key, true);
      v.setUint32(FRAME_HEADER, n, true);
      w.write(frame);
    });
    w.close();
    this.runs.push(w.path);
    this.table.clear();
  }

  sorted(each: (key: number, count: number) => void): void {
    if (this.runs.length === 0) {
      this.table.sorted(each);
      return;
    }
    if (this.table.size > 0) this.spill();
    const { fanIn, readBufferBytes, pool } = this.opts;
    const runs = mergeDown(this.runs, this.dir, fanIn, readBufferBytes, pool);
    let key = -1;
    let n = 0;
    for (const f of mergeRuns(runs, readBufferBytes, pool)) {
      if (f.key !== key) {
        if (n > 0) each(key, n);
        key = f.key;
        n = 0;
      }
      n += new DataView(f.payload.buffer, f.payload.byteOffset, 4).getUint32(0, true);
    }
    if (n > 0) each(key, n);
  }
}
