// Compact lot records passed from the workers to the writer through bucket files: the lot's Hilbert key, a
// tie-break, its quantised ring and its LOT_COLUMNS values at the precision the pack stores them. Dictionary
// columns name each string once per file.
import { type ColumnSpec, NULL_INT, type Value } from "../../src/packs/paged/index.ts";

const utf8 = new TextEncoder();
const utf8d = new TextDecoder();

export type LotRecordBytes = { key: number; tie: number; ring: Int32Array; values: Value[] };

export class RecordWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private at = 0;
  private readonly dict = new Map<string, number>();
  private readonly columns: readonly ColumnSpec[];

  constructor(columns: readonly ColumnSpec[]) {
    this.columns = columns;
  }

  get length(): number {
    return this.at;
  }

  private ensure(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  private varint(v: number): void {
    this.ensure(5);
    let x = v >>> 0;
    while (x >= 0x80) {
      this.buf[this.at++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    this.buf[this.at++] = x;
  }

  private text(s: string): void {
    const b = utf8.encode(s);
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** Appends one lot; `ring` holds its open ring's integer vertices (x, y, ...). */
  write(key: number, tie: number, ring: Int32Array, values: readonly Value[]): void {
    this.ensure(12 + ring.length * 4);
    this.view.setUint32(this.at, key, true);
    this.view.setUint32(this.at + 4, tie, true);
    this.at += 8;
    this.varint(ring.length / 2);
    for (let i = 0; i < ring.length; i++) {
      this.view.setInt32(this.at, ring[i] as number, true);
      this.at += 4;
    }
    this.columns.forEach((c, i) => {
      const v = values[i] ?? null;
      // A json column's value is its JSON text, spilled as text is.
      if (c.type === "text" || c.type === "json") {
        if (v === null) this.varint(0);
        else {
          const b = utf8.encode(String(v));
          this.varint(b.length + 1);
          this.ensure(b.length);
          this.buf.set(b, this.at);
          this.at += b.length;
        }
      } else if (c.type === "dict") {
        if (v === null) this.varint(0);
        else {
          const s = String(v);
          const id = this.dict.get(s);
          if (id !== undefined) this.varint(id + 2);
          else {
            this.dict.set(s, this.dict.size);
            this.varint(1);
            this.text(s);
          }
        }
      } else if (c.type === "f32") {
        this.ensure(4);
        this.view.setFloat32(this.at, typeof v === "number" ? v : Number.NaN, true);
        this.at += 4;
      } else {
        // Stored as the pack will: round(value x scale), one more so that 0 is null.
        const q = typeof v === "number" ? Math.round(v * (c.scale ?? 1)) : -1;
        if (q >= NULL_INT[c.type]) throw new RangeError(`column ${c.name}: ${String(v)} does not fit ${c.type}`);
        this.varint(q + 1);
      }
    });
  }

  /** The bytes written since the last take, leaving the dictionary (the file continues). */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.at);
    this.at = 0;
    return out;
  }
}

/**
 * A bucket file's records, scanned once for where each starts and for its strings: a record is decoded only
 * when the writer takes it, so a bucket costs its bytes and a few numbers per lot, not decoded objects.
 */
export class RecordFile {
  readonly bytes: Uint8Array;
  readonly offsets: number[] = [];
  readonly keys: number[] = [];
  readonly ties: number[] = [];
  private readonly view: DataView;
  private readonly dict: string[] = [];
  private readonly columns: readonly ColumnSpec[];
  private at = 0;

  constructor(bytes: Uint8Array, columns: readonly ColumnSpec[]) {
    this.bytes = bytes;
    this.columns = columns;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    while (this.at < bytes.length) {
      this.offsets.push(this.at);
      this.keys.push(this.view.getUint32(this.at, true));
      this.ties.push(this.view.getUint32(this.at + 4, true));
      this.record(false);
    }
  }

  private varint(): number {
    let x = 0;
    let shift = 0;
    for (;;) {
      const b = this.bytes[this.at++] as number;
      x += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return x;
      shift += 7;
    }
  }

  private text(n: number, keep: boolean): string | null {
    const s = keep ? utf8d.decode(this.bytes.subarray(this.at, this.at + n)) : null;
    this.at += n;
    return s;
  }

  // Reads the record at `this.at`; without `keep` it only moves past it (learning the strings it defines).
  private record(keep: boolean): LotRecordBytes | null {
    const key = this.view.getUint32(this.at, true);
    const tie = this.view.getUint32(this.at + 4, true);
    this.at += 8;
    const n = this.varint();
    const ring = keep ? new Int32Array(2 * n) : null;
    if (ring) for (let i = 0; i < 2 * n; i++) ring[i] = this.view.getInt32(this.at + 4 * i, true);
    this.at += 8 * n;
    const values: Value[] = keep ? new Array(this.columns.length) : [];
    this.columns.forEach((c, i) => {
      let v: Value = null;
      if (c.type === "text" || c.type === "json") {
        const len = this.varint();
        v = len === 0 ? null : this.text(len - 1, keep);
      } else if (c.type === "dict") {
        const code = this.varint();
        if (code === 1) {
          const s = this.text(this.varint(), true) as string;
          // Defined where first used: the scan learns it, a later decode finds it by number.
          if (!keep) this.dict.push(s);
          v = s;
        } else if (code > 1) v = this.dict[code - 2] as string;
      } else if (c.type === "f32") {
        const f = this.view.getFloat32(this.at, true);
        this.at += 4;
        v = Number.isNaN(f) ? null : f;
      } else {
        const q = this.varint();
        v = q === 0 ? null : (q - 1) / (c.scale ?? 1);
      }
      if (keep) values[i] = v;
    });
    return ring ? { key, tie, ring, values } : null;
  }

  /** The record starting at byte `offset`. */
  decode(offset: number): LotRecordBytes {
    this.at = offset;
    return this.record(true) as LotRecordBytes;
  }
}
