// The lot-id index built by external sort: (hash, page) pairs spilled to runs and merged into index pages on disk.
//
// PackWriter keeps its index pairs in memory (6 to 26 bytes a lot); spilling them is what keeps the builder's
// memory flat in the number of lots. Pages are cut exactly as PackWriter cuts them, so the bytes are the same.
import { join } from "node:path";
import { crc32 } from "../../../src/packs/crc32.ts";
import { encodeIndexPage, INDEX_PAGE_ENTRIES, type IndexEntry } from "../../../src/packs/paged/index.ts";
import { FileWriter, mergeDown, mergeRuns, SortScratch, Spill, sortChunk } from "./runs.ts";

const EMPTY = new Uint8Array(0);

export class LotIdIndexSpill {
  private readonly spill: Spill;
  private readonly dir: string;
  private readonly pool: Uint8Array | undefined;
  private n = 0;

  // `dir` is this index's own: merges name their files there. `pool`: memory idle by `finish`, for the chunks' sort.
  constructor(dir: string, buffer: Uint8Array, pool?: Uint8Array) {
    this.dir = dir;
    this.spill = new Spill(dir, "lotid", buffer);
    this.pool = pool;
  }

  get count(): number {
    return this.n;
  }

  add(hash: number, page: number): void {
    // hash * 2^16 + page is exact in a float64, and sorts as PackWriter sorts its pairs.
    this.spill.add(hash * 65536 + page, this.n++, EMPTY);
  }

  /** Writes the index pages to `out`; returns the root's entries for them. Memory: one page of entries, and the chunk buffer. */
  finish(
    out: string,
    fanIn: number,
    readBufferBytes: number,
    onPage?: (entriesDone: number) => void,
  ): { entries: IndexEntry[]; bytes: number; runs: number } {
    const chunks = this.spill.finish();
    // A full chunk is 512k pairs: its sort's 10 MiB of arrays come from the pool, not a new allocation per chunk.
    const scratch = new SortScratch(this.pool);
    const runs = chunks.map((c, i) => {
      const run = join(this.dir, `lotid-${String(i).padStart(5, "0")}.run`);
      sortChunk(c, run, this.spill.buffer, (_p, key) => key, scratch);
      return run;
    });
    // The chunk buffer is idle once the chunks are sorted: the merges read through slices of it.
    const pool = this.spill.buffer;
    const merged = mergeDown(runs, this.dir, fanIn, readBufferBytes, pool);
    const w = new FileWriter(out, scratch.writeBuffer);
    const entries: IndexEntry[] = [];
    let hashes = new Uint32Array(INDEX_PAGE_ENTRIES);
    let pages = new Uint16Array(INDEX_PAGE_ENTRIES);
    let k = 0;
    let done = 0;
    const emit = () => {
      const b = encodeIndexPage(entries.length, hashes.subarray(0, k), pages.subarray(0, k));
      entries.push({ firstHash: hashes[0] as number, length: b.length, crc: crc32(b.subarray(8)) });
      w.write(b);
      done += k;
      k = 0;
      onPage?.(done);
    };
    for (const f of mergeRuns(merged, readBufferBytes, pool)) {
      const h = Math.floor(f.key / 65536);
      // A run of equal hashes never straddles two index pages.
      if (k >= INDEX_PAGE_ENTRIES && h !== hashes[k - 1]) emit();
      if (k === hashes.length) {
        const hs = new Uint32Array(k * 2);
        hs.set(hashes);
        hashes = hs;
        const ps = new Uint16Array(k * 2);
        ps.set(pages);
        pages = ps;
      }
      hashes[k] = h;
      pages[k] = f.key % 65536;
      k++;
    }
    if (k > 0) emit();
    w.close();
    return { entries, bytes: w.bytes, runs: runs.length };
  }
}
