// External sort: keyed frames spilled to chunk files of bounded size, each sorted into a run, runs merged k ways.
//
// A frame is: payload length u32, sequence u32 (ties keep input order), key f64, payload. Memory is one chunk
// buffer while spilling and sorting, and one read buffer per run while merging, whatever the input's size; the read
// buffers are cut from a `pool` (a chunk buffer the build no longer needs) where one is given, so more runs cost nothing.
import { closeSync, fstatSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

export const FRAME_HEADER = 16;

export type Frame = { key: number; seq: number; payload: Uint8Array };

/** Appends bytes to a file through a buffer, synchronously. */
export class FileWriter {
  readonly path: string;
  bytes = 0;
  private readonly fd: number;
  private readonly buf: Uint8Array;
  private used = 0;
  private closed = false;

  // `buffer`: its size, or a buffer of its own (one a caller reuses from file to file).
  constructor(path: string, buffer: number | Uint8Array = 1 << 20) {
    this.path = path;
    this.fd = openSync(path, "w");
    this.buf = typeof buffer === "number" ? new Uint8Array(buffer) : buffer;
  }

  write(b: Uint8Array): void {
    if (this.used + b.length > this.buf.length) this.flush();
    if (b.length > this.buf.length) writeSync(this.fd, b);
    else {
      this.buf.set(b, this.used);
      this.used += b.length;
    }
    this.bytes += b.length;
  }

  private flush(): void {
    if (this.used > 0) writeSync(this.fd, this.buf, 0, this.used);
    this.used = 0;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }

  /** Closes the file without writing what is buffered (a build that failed). */
  abandon(): void {
    if (!this.closed) closeSync(this.fd);
    this.closed = true;
  }
}

function writeFrame(into: Uint8Array, v: DataView, at: number, key: number, seq: number, payload: Uint8Array): void {
  v.setUint32(at, payload.length, true);
  v.setUint32(at + 4, seq, true);
  v.setFloat64(at + 8, key, true);
  into.set(payload, at + FRAME_HEADER);
}

/** Collects frames in one buffer and writes it out as a chunk file whenever the next frame would not fit. */
export class Spill {
  readonly files: string[] = [];
  private readonly dir: string;
  private readonly prefix: string;
  private readonly buf: Uint8Array;
  private readonly view: DataView;
  private used = 0;

  // `buffer` (its size the chunk size) may be one a finished spill no longer needs.
  constructor(dir: string, prefix: string, buffer: Uint8Array) {
    this.dir = dir;
    this.prefix = prefix;
    this.buf = buffer;
    this.view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  add(key: number, seq: number, payload: Uint8Array): void {
    const n = FRAME_HEADER + payload.length;
    if (this.used + n > this.buf.length) this.flush();
    if (n > this.buf.length) {
      // A frame larger than a chunk is a chunk of its own.
      const one = new Uint8Array(n);
      writeFrame(one, new DataView(one.buffer), 0, key, seq, payload);
      this.writeChunk(one);
    } else {
      writeFrame(this.buf, this.view, this.used, key, seq, payload);
      this.used += n;
    }
  }

  private writeChunk(b: Uint8Array): void {
    const path = join(this.dir, `${this.prefix}-${String(this.files.length).padStart(5, "0")}.chunk`);
    const fd = openSync(path, "w");
    writeSync(fd, b);
    closeSync(fd);
    this.files.push(path);
  }

  private flush(): void {
    if (this.used === 0) return;
    this.writeChunk(this.buf.subarray(0, this.used));
    this.used = 0;
  }

  /** Writes what is left; returns the chunk files, in input order. */
  finish(): string[] {
    this.flush();
    return this.files;
  }

  /** The chunk buffer, for sorting the chunks afterwards without allocating another. */
  get buffer(): Uint8Array {
    return this.buf;
  }
}

// The whole file in `reuse` when it fits (a full chunk does), else in a buffer of the file's size.
function readWhole(path: string, reuse: Uint8Array): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const buf = size <= reuse.length ? reuse : new Uint8Array(size);
    let n = 0;
    while (n < size) {
      const got = readSync(fd, buf, n, size - n, null);
      if (got === 0) throw new Error(`chunk file ${path} ended at ${n} of ${size} bytes`);
      n += got;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * Memory sortChunk reuses from chunk to chunk, so sorting many chunks allocates once: its per-frame arrays (cut from
 * `pool`, memory the build is not using meanwhile, where they fit) and its write buffer.
 */
export class SortScratch {
  private mem: Uint8Array;
  private write: Uint8Array | null = null;

  constructor(pool: Uint8Array = new Uint8Array(0)) {
    this.mem = pool;
  }

  /** `bytes` of scratch, 8-byte aligned. */
  arrays(bytes: number): Uint8Array {
    // Past the pool: a buffer of its own, kept (the first, full chunk holds about the most frames there are).
    if (bytes > this.mem.length || this.mem.byteOffset % 8 !== 0) this.mem = new Uint8Array(bytes);
    return this.mem.subarray(0, bytes);
  }

  get writeBuffer(): Uint8Array {
    this.write ??= new Uint8Array(1 << 20);
    return this.write;
  }
}

/**
 * Sorts one chunk file into a run file by (key, seq); `keyOf` gives each frame's key from its payload (the key
 * spilled with it is passed in). The chunk file is deleted. `buffer` is reused to read the chunk, `scratch` to sort it.
 */
export function sortChunk(
  chunk: string,
  run: string,
  buffer: Uint8Array,
  keyOf: (payload: Uint8Array, spilled: number) => number,
  scratch: SortScratch = new SortScratch(),
): number {
  const b = readWhole(chunk, buffer);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let n = 0;
  for (let at = 0; at < b.length; at += FRAME_HEADER + view.getUint32(at, true)) n++;
  // 20 bytes a frame, bounded by the chunk: keys f64, then offsets (a chunk is under 4 GiB), seqs and order u32.
  const mem = scratch.arrays(20 * n);
  const keys = new Float64Array(mem.buffer, mem.byteOffset, n);
  const offsets = new Uint32Array(mem.buffer, mem.byteOffset + 8 * n, n);
  const seqs = new Uint32Array(mem.buffer, mem.byteOffset + 12 * n, n);
  const order = new Uint32Array(mem.buffer, mem.byteOffset + 16 * n, n);
  for (let i = 0, at = 0; i < n; i++) {
    const len = view.getUint32(at, true);
    offsets[i] = at;
    seqs[i] = view.getUint32(at + 4, true);
    keys[i] = keyOf(b.subarray(at + FRAME_HEADER, at + FRAME_HEADER + len), view.getFloat64(at + 8, true));
    at += FRAME_HEADER + len;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((x, y) => (keys[x] as number) - (keys[y] as number) || (seqs[x] as number) - (seqs[y] as number));
  const w = new FileWriter(run, scratch.writeBuffer);
  const head = new Uint8Array(FRAME_HEADER);
  const hv = new DataView(head.buffer);
  for (let k = 0; k < n; k++) {
    const i = order[k] as number;
    const at = offsets[i] as number;
    const len = view.getUint32(at, true);
    hv.setUint32(0, len, true);
    hv.setUint32(4, seqs[i] as number, true);
    hv.setFloat64(8, keys[i] as number, true);
    w.write(head);
    w.write(b.subarray(at + FRAME_HEADER, at + FRAME_HEADER + len));
  }
  w.close();
  rmSync(chunk);
  return n;
}

/** Reads a run file's frames in order through a buffer of bounded size. */
class RunReader {
  key = 0;
  seq = 0;
  payload: Uint8Array = new Uint8Array(0);
  private readonly path: string;
  private readonly fd: number;
  private buf: Uint8Array;
  private start = 0;
  private end = 0;
  private eof = false;
  private closed = false;

  constructor(path: string, buffer: Uint8Array) {
    this.path = path;
    this.fd = openSync(path, "r");
    this.buf = buffer;
  }

  // Makes at least `n` bytes available from `start`; false at a clean end of file.
  private fill(n: number): boolean {
    if (this.end - this.start >= n) return true;
    if (n > this.buf.length) {
      const grown = new Uint8Array(n);
      grown.set(this.buf.subarray(this.start, this.end));
      this.end -= this.start;
      this.start = 0;
      this.buf = grown;
    } else if (this.start > 0) {
      this.buf.copyWithin(0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    while (this.end - this.start < n && !this.eof) {
      const got = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
      if (got === 0) this.eof = true;
      this.end += got;
    }
    if (this.end - this.start >= n) return true;
    if (this.end > this.start) throw new Error(`run file ${this.path} ends inside a frame`);
    return false;
  }

  close(): void {
    if (!this.closed) closeSync(this.fd);
    this.closed = true;
  }

  /** Moves to the next frame; false (and the file closed) at the end. The payload is valid until the next call. */
  next(): boolean {
    if (!this.fill(FRAME_HEADER)) {
      this.close();
      return false;
    }
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.start, FRAME_HEADER);
    const len = v.getUint32(0, true);
    this.seq = v.getUint32(4, true);
    this.key = v.getFloat64(8, true);
    if (!this.fill(FRAME_HEADER + len)) throw new Error(`run file ${this.path} ends inside a frame`);
    const at = this.start + FRAME_HEADER;
    this.payload = this.buf.subarray(at, at + len);
    this.start = at + len;
    return true;
  }
}

const before = (a: RunReader, b: RunReader) => a.key < b.key || (a.key === b.key && a.seq < b.seq);

// Run i's read buffer: the i-th slice of `pool` while one fits, a new buffer past it.
function readBuffer(i: number, bytes: number, pool: Uint8Array | undefined): Uint8Array {
  if (pool && (i + 1) * bytes <= pool.length) return pool.subarray(i * bytes, (i + 1) * bytes);
  return new Uint8Array(bytes);
}

/**
 * Every frame of the runs in (key, seq) order; each yielded payload is valid until the next is asked for. The read
 * buffers are cut from `pool` while they fit: nothing else may use it until the merge is done.
 */
export function* mergeRuns(files: readonly string[], bufferBytes: number, pool?: Uint8Array): Generator<Frame> {
  const heap: RunReader[] = [];
  for (const [i, f] of files.entries()) {
    const r = new RunReader(f, readBuffer(i, bufferBytes, pool));
    if (r.next()) heap.push(r);
  }
  const down = (i: number) => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && before(heap[l] as RunReader, heap[m] as RunReader)) m = l;
      if (r < n && before(heap[r] as RunReader, heap[m] as RunReader)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m] as RunReader, heap[i] as RunReader];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  try {
    while (heap.length > 0) {
      const top = heap[0] as RunReader;
      yield { key: top.key, seq: top.seq, payload: top.payload };
      if (!top.next()) {
        const last = heap.pop() as RunReader;
        if (heap.length === 0) break;
        heap[0] = last;
      }
      down(0);
    }
  } finally {
    // A consumer that stops early (an error) leaves no file open.
    for (const r of heap) r.close();
  }
}

/** Merges groups of runs into longer runs until at most `fanIn` remain, so the final merge's buffers stay bounded. */
export function mergeDown(
  files: readonly string[],
  dir: string,
  fanIn: number,
  bufferBytes: number,
  pool?: Uint8Array,
): string[] {
  let runs = [...files];
  let pass = 0;
  while (runs.length > fanIn) {
    const next: string[] = [];
    for (let g = 0; g < runs.length; g += fanIn) {
      const group = runs.slice(g, g + fanIn);
      if (group.length === 1) {
        next.push(group[0] as string);
        continue;
      }
      const out = new FileWriter(join(dir, `merge-${pass}-${String(next.length).padStart(5, "0")}.run`));
      const head = new Uint8Array(FRAME_HEADER);
      const hv = new DataView(head.buffer);
      for (const f of mergeRuns(group, bufferBytes, pool)) {
        hv.setUint32(0, f.payload.length, true);
        hv.setUint32(4, f.seq, true);
        hv.setFloat64(8, f.key, true);
        out.write(head);
        out.write(f.payload);
      }
      out.close();
      for (const f of group) rmSync(f);
      next.push(out.path);
    }
    runs = next;
    pass++;
  }
  return runs;
}
