// One lot as a compact binary record for the run files: its input number, box centre, geometry columns and mapped fields.
//
// Coordinates stay float64, as a v1 pack stores them, so the facts computed from a record equal those computed
// from the same lot in a v1 pack. Encoding and decoding reuse their buffers: millions of lots allocate nothing
// off the heap per lot, which keeps the process's resident memory from creeping up with the input's size.
import type { Columns } from "../../../src/geo/types.ts";

export type LotFrame = {
  // features[feature] of the cadastre file.
  feature: number;
  cx: number;
  cy: number;
  // One feature's columns (featureOffsets [0, polygons]).
  cols: Columns;
  // The mapped fields, JSON of the layer spec's values in field order.
  row: string;
};

// feature u32, cx f64, cy f64, polygons u32, rings u32, vertices u32, row bytes u32.
const FIXED = 36;

/** Where the box centre sits in a record, for keying a record without decoding it. */
export const CENTRE_X_AT = 4;
export const CENTRE_Y_AT = 12;

export class LotFrameEncoder {
  private buf = new Uint8Array(4096);
  private view = new DataView(this.buf.buffer);
  private readonly text = new TextEncoder();

  /** The record's bytes, a view valid until the next call. */
  encode(f: LotFrame): Uint8Array {
    const polys = f.cols.polyOffsets.length - 1;
    const rings = f.cols.ringOffsets.length - 1;
    const verts = f.cols.coords.length >>> 1;
    const rowAt = FIXED + 4 * (polys + 1) + 4 * (rings + 1) + 16 * verts;
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    const most = rowAt + 3 * f.row.length;
    if (most > this.buf.length) {
      this.buf = new Uint8Array(Math.max(most, 2 * this.buf.length));
      this.view = new DataView(this.buf.buffer);
    }
    const v = this.view;
    v.setUint32(0, f.feature, true);
    v.setFloat64(CENTRE_X_AT, f.cx, true);
    v.setFloat64(CENTRE_Y_AT, f.cy, true);
    v.setUint32(20, polys, true);
    v.setUint32(24, rings, true);
    v.setUint32(28, verts, true);
    let at = FIXED;
    for (let i = 0; i <= polys; i++, at += 4) v.setUint32(at, f.cols.polyOffsets[i] as number, true);
    for (let i = 0; i <= rings; i++, at += 4) v.setUint32(at, f.cols.ringOffsets[i] as number, true);
    for (let i = 0; i < 2 * verts; i++, at += 8) v.setFloat64(at, f.cols.coords[i] as number, true);
    const { written } = this.text.encodeInto(f.row, this.buf.subarray(rowAt));
    v.setUint32(32, written, true);
    return this.buf.subarray(0, rowAt + written);
  }
}

export class LotFrameDecoder {
  private coords = new Float64Array(256);
  private polys = new Uint32Array(16);
  private rings = new Uint32Array(16);
  private readonly text = new TextDecoder();

  /** The record; its columns are views valid until the next call. */
  decode(b: Uint8Array): LotFrame {
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const polys = v.getUint32(20, true);
    const rings = v.getUint32(24, true);
    const verts = v.getUint32(28, true);
    const rowBytes = v.getUint32(32, true);
    if (polys + 1 > this.polys.length) this.polys = new Uint32Array(2 * (polys + 1));
    if (rings + 1 > this.rings.length) this.rings = new Uint32Array(2 * (rings + 1));
    if (2 * verts > this.coords.length) this.coords = new Float64Array(4 * verts);
    let at = FIXED;
    for (let i = 0; i <= polys; i++, at += 4) this.polys[i] = v.getUint32(at, true);
    for (let i = 0; i <= rings; i++, at += 4) this.rings[i] = v.getUint32(at, true);
    for (let i = 0; i < 2 * verts; i++, at += 8) this.coords[i] = v.getFloat64(at, true);
    return {
      feature: v.getUint32(0, true),
      cx: v.getFloat64(CENTRE_X_AT, true),
      cy: v.getFloat64(CENTRE_Y_AT, true),
      cols: {
        coords: this.coords.subarray(0, 2 * verts),
        ringOffsets: this.rings.subarray(0, rings + 1),
        polyOffsets: this.polys.subarray(0, polys + 1),
        featureOffsets: Uint32Array.of(0, polys),
      },
      row: this.text.decode(b.subarray(at, at + rowBytes)),
    };
  }
}
