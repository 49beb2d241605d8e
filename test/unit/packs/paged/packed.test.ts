// Column coding 1 (issue 33): packed integers, dictionary codes and split text round-trip exactly, and a page
// coded the old way (coding 0, packs written before) still decodes to the same values.
import { describe, expect, it } from "vitest";
import { ByteReader, ByteWriter } from "../../../../src/packs/paged/bytes.ts";
import { crc32 } from "../../../../src/packs/crc32.ts";
import { LOT_COLUMNS, lotValues } from "../../../../src/packs/paged/lot-columns.ts";
import { bitsFor, readInts, readSplitText, writeInts, writeSplitText } from "../../../../src/packs/paged/packed.ts";
import {
  type ColumnCoding,
  decodePage,
  encodePage,
  type PageFeature,
  pageValue,
} from "../../../../src/packs/paged/page.ts";
import type { Value } from "../../../../src/packs/paged/schema.ts";
import { World } from "../../../../scripts/bench/paged/world.ts";

function roundTripInts(values: number[]): { got: number[]; bytes: number } {
  const w = new ByteWriter();
  writeInts(w, values);
  const b = w.finish();
  const r = new ByteReader(b);
  const got = [...readInts(r, b, b.length, values.length)];
  expect(r.pos).toBe(b.length);
  return { got, bytes: b.length };
}

function roundTripText(values: (string | null)[]): (string | null)[] {
  const w = new ByteWriter();
  writeSplitText(w, values);
  const b = w.finish();
  return readSplitText(new ByteReader(b), b, b.length, values.length);
}

describe("packed integers", () => {
  it("store a page-wide constant in a few bytes, whatever the count", () => {
    const { got, bytes } = roundTripInts(new Array(5000).fill(65_535));
    expect(got).toEqual(new Array(5000).fill(65_535));
    expect(bytes).toBeLessThanOrEqual(6);
  });

  it("round-trip every width from 1 to 32 bits, by dictionary or from the smallest value", () => {
    for (let bits = 1; bits <= 32; bits++) {
      const top = 2 ** bits - 1;
      // Spread values (frame of reference) and a few repeated ones far apart (dictionary).
      const spread = Array.from({ length: 301 }, (_, i) => Math.floor((top * ((i * 7919) % 301)) / 300));
      const few = Array.from({ length: 301 }, (_, i) => [0, top, Math.floor(top / 3)][i % 3] as number);
      expect(roundTripInts(spread).got, `${bits} bits spread`).toEqual(spread);
      expect(roundTripInts(few).got, `${bits} bits few`).toEqual(few);
    }
    expect(roundTripInts([]).got).toEqual([]);
    expect(bitsFor(0)).toBe(0);
    expect(bitsFor(0xffffffff)).toBe(32);
  });

  it("code a share column of 201 distinct values (a null among them) in 8 bits each plus its dictionary", () => {
    const values = Array.from({ length: 2000 }, (_, i) => (i % 10 === 0 ? (i * 37) % 10_000 : 0));
    values[5] = 0xffff;
    const { got, bytes } = roundTripInts(values);
    expect(got).toEqual(values);
    expect(new Set(values).size).toBe(201);
    // 2000 codes of 8 bits, 201 ascending values as delta varints of at most 2 bytes, 3 bytes of scheme and sizes.
    expect(bytes).toBeLessThanOrEqual(2000 + 2 * 201 + 4);
  });
});

describe("split text", () => {
  it("gives back every string as written: numbers first or not, leading zeros, long digits, empty, null, unicode", () => {
    const values = [
      "12//DP10345",
      "13//DP10345",
      "A//DP10345",
      "0",
      "007 Bond Street",
      "0 Zero Road",
      "1234567890123 Long Street",
      "",
      null,
      "21 Smith Street, Ashfield NSW 2131",
      "23 Smith Street, Ashfield NSW 2131",
      "Ōtaki Café 5",
      "4294967295",
    ];
    expect(roundTripText(values)).toEqual(values);
  });

  it("names a shared remainder once: a street's addresses cost a few bytes each", () => {
    const values = Array.from({ length: 1000 }, (_, i) => `${i + 1} Smith Street, Ashfield NSW 2131`);
    const w = new ByteWriter();
    writeSplitText(w, values);
    expect(w.length).toBeLessThan(2 * values.length);
    expect(roundTripText(values)).toEqual(values);
  });
});

describe("pages of both codings", () => {
  const world = new World(3000);
  const features: PageFeature[] = Array.from({ length: 3000 }, (_, i) => {
    const f = world.feature(i);
    const ring = (f.geometry.type === "Polygon" ? f.geometry.coordinates[0] : []) ?? [];
    const q = Int32Array.from(ring.slice(0, -1).flatMap((p) => [Math.round(p[0] * 1e7), Math.round(p[1] * 1e7)]));
    const xs = q.filter((_, k) => k % 2 === 0);
    const ys = q.filter((_, k) => k % 2 === 1);
    return {
      polygons: [[q]],
      values: f.values,
      minX: Math.min(...xs),
      minY: Math.min(...ys),
      maxX: Math.max(...xs),
      maxY: Math.max(...ys),
    };
  });
  const values = (coding: ColumnCoding): { bytes: number; rows: Value[][] } => {
    const b = encodePage(4, features, LOT_COLUMNS, coding);
    const page = decodePage(b, 4, crc32(b.subarray(8)), LOT_COLUMNS, "test.pack");
    const rows = features.map((_, i) => LOT_COLUMNS.map((_, c) => pageValue(page, c, i)));
    return { bytes: b.length, rows };
  };

  it("read back every lot's columns the same, the packed page under half the old one's size", () => {
    const old = values(0);
    const packed = values(1);
    expect(packed.rows).toEqual(old.rows);
    // The stored values are the records' values at each column's precision.
    expect(packed.rows[17]?.[0]).toBe(lotValues(world.record(17))[0]);
    expect(packed.bytes).toBeLessThan(old.bytes / 2);
  });

  it("refuse a page whose coding is unknown, naming it", () => {
    const b = encodePage(4, features.slice(0, 10), LOT_COLUMNS, 1);
    new DataView(b.buffer).setUint32(20, 7, true);
    new DataView(b.buffer).setUint32(4, crc32(b.subarray(8)), true);
    expect(() => decodePage(b, 4, crc32(b.subarray(8)), LOT_COLUMNS, "test.pack")).toThrow(
      /page 4 refused: unknown column coding 7/,
    );
  });
});
