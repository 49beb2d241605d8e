// Zipped Shapefiles whose .dbf does not match their .shp, generated (no node: imports, so workerd imports them too).
import { zipSync } from "fflate";
import { PRJ_WGS84 } from "./zip.ts";

/** A .shp of `count` small square lots near Parramatta (shape type 5), outer rings clockwise. */
export function squaresShp(count: number): Uint8Array {
  const recordBytes = 8 + 44 + 4 + 16 * 5;
  const out = new DataView(new ArrayBuffer(100 + recordBytes * count));
  const side = 0.0005;
  for (let i = 0; i < count; i++) {
    const x = 151.0 + (i % 100) * side * 2;
    const y = -33.8 + Math.floor(i / 100) * side * 2;
    const at = 100 + recordBytes * i;
    out.setInt32(at, i + 1);
    out.setInt32(at + 4, (recordBytes - 8) / 2);
    out.setInt32(at + 8, 5, true);
    for (const [k, v] of [x, y, x + side, y + side].entries()) out.setFloat64(at + 12 + 8 * k, v, true);
    out.setInt32(at + 44, 1, true);
    out.setInt32(at + 48, 5, true);
    out.setInt32(at + 52, 0, true);
    const ring = [
      [x, y],
      [x, y + side],
      [x + side, y + side],
      [x + side, y],
      [x, y],
    ];
    ring.forEach(([px, py], k) => {
      out.setFloat64(at + 56 + 16 * k, px as number, true);
      out.setFloat64(at + 64 + 16 * k, py as number, true);
    });
  }
  out.setInt32(0, 9994);
  out.setInt32(24, out.byteLength / 2);
  out.setInt32(28, 1000, true);
  out.setInt32(32, 5, true);
  return new Uint8Array(out.buffer);
}

/** A .dbf with one 20-character lot_id field and `rows` records, its header declaring `declared` of them. */
export function lotsDbf(rows: number, declared = rows): Uint8Array {
  const headerLength = 32 + 32 + 1;
  const recordLength = 1 + 20;
  const out = new Uint8Array(headerLength + recordLength * rows + 1);
  const view = new DataView(out.buffer);
  out[0] = 0x03;
  view.setUint32(4, declared, true);
  view.setUint16(8, headerLength, true);
  view.setUint16(10, recordLength, true);
  out.set(
    Uint8Array.from("lot_id", (c) => c.charCodeAt(0)),
    32,
  );
  out[32 + 11] = 0x43; // C: character
  out[32 + 16] = 20;
  out[headerLength - 1] = 0x0d;
  for (let i = 0; i < rows; i++) {
    const at = headerLength + recordLength * i;
    out.fill(0x20, at, at + recordLength);
    out.set(
      Uint8Array.from(`${i + 1}//DP900${i}`, (c) => c.charCodeAt(0)),
      at + 1,
    );
  }
  out[out.length - 1] = 0x1a;
  return out;
}

/** A zipped Shapefile of `shapes` lots whose .dbf is `dbf` (well-formed zip, deflated as tools write it). */
export function lotsZip(shapes: number, dbf: Uint8Array, shp = squaresShp(shapes)): Uint8Array {
  return zipSync({
    "lots.shp": shp,
    "lots.dbf": dbf,
    "lots.prj": Uint8Array.from(PRJ_WGS84, (c) => c.charCodeAt(0)),
  });
}

/** 5 shapes, a consistent .dbf of 3 records. */
export const dbfShortZip = () => lotsZip(5, lotsDbf(3));

/** 5 shapes, a .dbf declaring 5 records but cut off in the middle of record 3. */
export function dbfTruncatedZip(): Uint8Array {
  const dbf = lotsDbf(5);
  return lotsZip(5, dbf.subarray(0, 65 + 21 * 2 + 10));
}

/** 5 shapes whose third record header claims 2 GB of content: the reader would allocate what it claims. */
export function shpRecordClaimZip(): Uint8Array {
  const shp = squaresShp(5);
  const third = 100 + (8 + 44 + 4 + 16 * 5) * 2;
  new DataView(shp.buffer).setInt32(third + 4, 0x3fffffff);
  return lotsZip(5, lotsDbf(5), shp);
}
