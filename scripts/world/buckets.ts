// Lot records on their way to the writer, split by the top bits of their Hilbert key: bucket b holds one
// stretch of the curve, so the writer sorts one bucket at a time and memory stays at one bucket's records.
import { closeSync, existsSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ColumnSpec, Value } from "../../src/packs/paged/index.ts";
import { RecordFile, RecordWriter } from "./record-codec.ts";

export const BUCKET_BITS = 8;
export const BUCKETS = 1 << BUCKET_BITS;
// A bucket's buffered records go to disk past this.
const FLUSH_BYTES = 64 * 1024;

function bucketFile(dir: string, writer: number, bucket: number): string {
  return join(dir, `w${writer}-b${bucket}.rec`);
}

/** One writer's bucket files (a worker, or the main thread when building in-process). */
export class BucketSink {
  private readonly writers: RecordWriter[];
  private readonly fds: (number | null)[];
  private readonly dir: string;
  private readonly id: number;

  constructor(dir: string, id: number, columns: readonly ColumnSpec[]) {
    this.dir = dir;
    this.id = id;
    this.writers = Array.from({ length: BUCKETS }, () => new RecordWriter(columns));
    this.fds = new Array(BUCKETS).fill(null);
  }

  write(key: number, tie: number, ring: Int32Array, values: readonly Value[]): void {
    const b = key >>> (32 - BUCKET_BITS);
    const w = this.writers[b] as RecordWriter;
    w.write(key, tie, ring, values);
    if (w.length >= FLUSH_BYTES) this.flush(b);
  }

  private flush(b: number): void {
    const w = this.writers[b] as RecordWriter;
    if (w.length === 0) return;
    let fd = this.fds[b] ?? null;
    if (fd === null) {
      fd = openSync(bucketFile(this.dir, this.id, b), "w");
      this.fds[b] = fd;
    }
    const bytes = w.take();
    writeSync(fd, bytes, 0, bytes.length);
  }

  close(): void {
    for (let b = 0; b < BUCKETS; b++) {
      this.flush(b);
      const fd = this.fds[b];
      if (fd !== null && fd !== undefined) closeSync(fd);
      this.fds[b] = null;
    }
  }
}

/** Bucket b's files from all writers, and the order to take their records in (Hilbert key, then tie). */
export function openBucket(
  dir: string,
  writers: number,
  b: number,
  columns: readonly ColumnSpec[],
): { files: RecordFile[]; order: { file: number; offset: number }[] } {
  const files: RecordFile[] = [];
  for (let w = 0; w < writers; w++) {
    const f = bucketFile(dir, w, b);
    if (!existsSync(f)) continue;
    const buf = readFileSync(f);
    files.push(new RecordFile(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), columns));
  }
  const order: { file: number; offset: number; key: number; tie: number }[] = [];
  files.forEach((f, i) => {
    for (let k = 0; k < f.offsets.length; k++) {
      order.push({ file: i, offset: f.offsets[k] as number, key: f.keys[k] as number, tie: f.ties[k] as number });
    }
  });
  order.sort((x, y) => x.key - y.key || x.tie - y.tie);
  return { files, order };
}
