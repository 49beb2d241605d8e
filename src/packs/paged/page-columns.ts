// A data page's attribute columns, written and read in either column coding: 0 plain (packs before issue 33's
// coding) or 1 packed (`packed.ts`); decoded, both give the same typed arrays, dictionaries and strings.
import { ByteReader, type ByteWriter, decodeUtf8, encodeUtf8 } from "./bytes.ts";
import {
  dictionaryOf,
  readInts,
  readSplitText,
  readStrings,
  writeInts,
  writeSplitText,
  writeStrings,
} from "./packed.ts";
import { type ColumnSpec, NULL_INT, type Value } from "./schema.ts";

// A feature ready for a page: rings quantised to 1e-7 degree integers, open (first vertex not repeated).
export type PageFeature = {
  polygons: Int32Array[][];
  values: readonly Value[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
};

export type PageColumn =
  | { kind: "num"; values: Float32Array | Uint8Array | Uint16Array | Uint32Array; scale: number; nullValue: number }
  | { kind: "dict"; codes: Uint8Array | Uint16Array; dict: string[] }
  | { kind: "text"; values: (string | null)[] }
  // Parsed once when the page is decoded (a text that is not JSON refuses the page); `bytes` estimates their memory.
  | { kind: "json"; values: unknown[]; bytes: number };

/** How a page's columns are coded: 0 plain (packs before issue 33's coding), 1 packed (`packed.ts`). */
export type ColumnCoding = 0 | 1;
export const COLUMN_CODING: ColumnCoding = 1;

// Each feature's value as the integer the column stores: round(value x scale), the type's maximum for null.
function storedInts(spec: ColumnSpec, features: readonly PageFeature[], col: number): Uint32Array {
  const type = spec.type as "u8" | "u16" | "u32";
  const nullValue = NULL_INT[type];
  const scale = spec.scale ?? 1;
  const out = new Uint32Array(features.length);
  for (let i = 0; i < features.length; i++) {
    const v = features[i]?.values[col];
    if (v === null || v === undefined) {
      out[i] = nullValue;
      continue;
    }
    const q = Math.round(Number(v) * scale);
    if (!(q >= 0 && q < nullValue)) {
      throw new RangeError(`column ${spec.name}: ${String(v)} does not fit ${spec.type} at scale ${scale}`);
    }
    out[i] = q;
  }
  return out;
}

const stringOrNull = (v: Value | undefined): string | null => (v === null || v === undefined ? null : String(v));

// A json column's texts parsed (null stays null), as the decoded page keeps them.
function jsonColumn(spec: ColumnSpec, texts: readonly (string | null)[]): PageColumn {
  let bytes = 0;
  const values = texts.map((t, i) => {
    if (t === null) return null;
    bytes += 2 * t.length + 16;
    try {
      return JSON.parse(t) as unknown;
    } catch {
      throw new RangeError(`column ${spec.name}: value ${i} is not JSON`);
    }
  });
  return { kind: "json", values, bytes };
}

export function writePackedColumn(
  w: ByteWriter,
  spec: ColumnSpec,
  features: readonly PageFeature[],
  col: number,
): void {
  const strings = () => features.map((f) => stringOrNull(f.values[col]));
  if (spec.type === "dict") {
    const { list, codes } = dictionaryOf(strings());
    writeStrings(w, list);
    writeInts(w, codes);
  } else if (spec.type === "text" || spec.type === "json") writeSplitText(w, strings());
  else if (spec.type === "f32") {
    // Float32 bit patterns as integers: nearby distances on a page share their high bits.
    const a = Float32Array.from(features, (f) => {
      const v = f.values[col];
      return typeof v === "number" ? v : Number.NaN;
    });
    writeInts(w, new Uint32Array(a.buffer));
  } else writeInts(w, storedInts(spec, features, col));
}

export function readPackedColumn(spec: ColumnSpec, b: Uint8Array, off: number, len: number, n: number): PageColumn {
  const end = off + len;
  const r = new ByteReader(b, off, end);
  if (spec.type === "dict") {
    const dict = readStrings(r, b, end, n);
    const raw = readInts(r, b, end, n);
    for (const c of raw) if (c > dict.length) throw new RangeError(`code ${c} past a dictionary of ${dict.length}`);
    return { kind: "dict", codes: dict.length < 255 ? Uint8Array.from(raw) : Uint16Array.from(raw), dict };
  }
  if (spec.type === "text") return { kind: "text", values: readSplitText(r, b, end, n) };
  if (spec.type === "json") return jsonColumn(spec, readSplitText(r, b, end, n));
  if (spec.type === "f32") {
    return { kind: "num", values: new Float32Array(readInts(r, b, end, n).buffer), scale: 1, nullValue: Number.NaN };
  }
  const type = spec.type as "u8" | "u16" | "u32";
  const raw = readInts(r, b, end, n);
  const nullValue = NULL_INT[type];
  for (const v of raw) if (v > nullValue) throw new RangeError(`column ${spec.name} holds ${v}, past ${type}`);
  const values = type === "u8" ? Uint8Array.from(raw) : type === "u16" ? Uint16Array.from(raw) : raw;
  return { kind: "num", values, scale: spec.scale ?? 1, nullValue };
}

export function writeColumn(w: ByteWriter, spec: ColumnSpec, features: readonly PageFeature[], col: number): void {
  const n = features.length;
  if (spec.type === "dict") {
    const codes = new Map<string, number>();
    const list: string[] = [];
    const raw = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const v = features[i]?.values[col];
      if (v === null || v === undefined) {
        raw[i] = 0;
        continue;
      }
      const s = String(v);
      let c = codes.get(s);
      if (c === undefined) {
        list.push(s);
        c = list.length;
        codes.set(s, c);
      }
      raw[i] = c;
    }
    w.varint(list.length);
    for (const s of list) {
      const b = encodeUtf8(s);
      w.varint(b.length);
      w.bytes(b);
    }
    w.align(2);
    const arr = list.length < 255 ? Uint8Array.from(raw) : Uint16Array.from(raw);
    w.bytes(new Uint8Array(arr.buffer));
    return;
  }
  if (spec.type === "text" || spec.type === "json") {
    for (let i = 0; i < n; i++) {
      const v = features[i]?.values[col];
      if (v === null || v === undefined) {
        w.varint(0);
        continue;
      }
      const b = encodeUtf8(String(v));
      w.varint(b.length + 1);
      w.bytes(b);
    }
    return;
  }
  if (spec.type === "f32") {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const v = features[i]?.values[col];
      a[i] = typeof v === "number" ? v : Number.NaN;
    }
    w.bytes(new Uint8Array(a.buffer));
    return;
  }
  const nullValue = NULL_INT[spec.type];
  const scale = spec.scale ?? 1;
  const a = spec.type === "u8" ? new Uint8Array(n) : spec.type === "u16" ? new Uint16Array(n) : new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = features[i]?.values[col];
    if (v === null || v === undefined) {
      a[i] = nullValue;
      continue;
    }
    const q = Math.round(Number(v) * scale);
    if (!(q >= 0 && q < nullValue)) {
      throw new RangeError(`column ${spec.name}: ${String(v)} does not fit ${spec.type} at scale ${scale}`);
    }
    a[i] = q;
  }
  w.bytes(new Uint8Array(a.buffer));
}

export function readColumn(spec: ColumnSpec, b: Uint8Array, off: number, len: number, n: number): PageColumn {
  const end = off + len;
  if (spec.type === "dict") {
    const r = new ByteReader(b, off, end);
    const size = r.varint();
    const dict: string[] = [];
    for (let i = 0; i < size; i++) {
      const l = r.varint();
      dict.push(decodeUtf8(b.subarray(r.pos, r.pos + l)));
      r.pos += l;
    }
    const at = r.pos + (r.pos & 1);
    const wide = size >= 255;
    const bytes = b.slice(at, at + n * (wide ? 2 : 1));
    if (bytes.length !== n * (wide ? 2 : 1) || at + bytes.length > end)
      throw new RangeError("dictionary codes cut short");
    return { kind: "dict", codes: wide ? new Uint16Array(bytes.buffer) : bytes, dict };
  }
  if (spec.type === "text" || spec.type === "json") {
    const r = new ByteReader(b, off, end);
    const values: (string | null)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const l = r.varint();
      if (l === 0) {
        values[i] = null;
        continue;
      }
      if (r.pos + l - 1 > end) throw new RangeError("text runs past its section");
      values[i] = decodeUtf8(b.subarray(r.pos, r.pos + l - 1));
      r.pos += l - 1;
    }
    return spec.type === "json" ? jsonColumn(spec, values) : { kind: "text", values };
  }
  const width = spec.type === "u8" ? 1 : spec.type === "u16" ? 2 : 4;
  if (len !== n * width) throw new RangeError(`column ${spec.name} holds ${len} bytes, expected ${n * width}`);
  const buf = b.slice(off, end).buffer;
  const values =
    spec.type === "f32"
      ? new Float32Array(buf)
      : spec.type === "u8"
        ? new Uint8Array(buf)
        : spec.type === "u16"
          ? new Uint16Array(buf)
          : new Uint32Array(buf);
  return {
    kind: "num",
    values,
    scale: spec.type === "f32" ? 1 : (spec.scale ?? 1),
    nullValue: spec.type === "f32" ? Number.NaN : NULL_INT[spec.type],
  };
}
