// The json column (any JSON value, stored as its text) round-trips in both column codings, a text that is not JSON
// refuses its page, and inferColumn picks for a field the column type that reads each of its values back exactly.
import { describe, expect, it } from "vitest";
import { crc32 } from "../../../../src/packs/crc32.ts";
import { inferColumn } from "../../../../src/packs/paged/infer-columns.ts";
import {
  type ColumnCoding,
  decodePage,
  encodePage,
  type PageFeature,
  pageProp,
  pageValue,
} from "../../../../src/packs/paged/page.ts";
import type { ColumnSpec, Value } from "../../../../src/packs/paged/schema.ts";

const JSON_VALUES: unknown[] = [
  null,
  true,
  false,
  -1,
  0,
  -33.87571,
  1e300,
  "",
  "12 Smith Street",
  "Ōtaki Café",
  "\ud800 alone",
  [],
  [1, "two", null, { three: 3 }],
  {},
  { a: { b: [true, -0.5] } },
];

const COLUMNS: ColumnSpec[] = [
  { name: "any", type: "json" },
  { name: "id", type: "u16" },
];

function feature(i: number, values: readonly Value[]): PageFeature {
  const x = 1_510_000_000 + 1000 * i;
  return {
    polygons: [[Int32Array.of(x, -338_000_000)]],
    values,
    minX: x,
    minY: -338_000_000,
    maxX: x,
    maxY: -338_000_000,
  };
}

const asText = (v: unknown): Value => (v === null ? null : JSON.stringify(v));

function roundTrip(coding: ColumnCoding, values: readonly unknown[]) {
  const features = values.map((v, i) => feature(i, [asText(v), i]));
  const b = encodePage(3, features, COLUMNS, coding);
  return { bytes: b.length, page: decodePage(b, 3, crc32(b.subarray(8)), COLUMNS, "json.pack") };
}

describe("a json column", () => {
  it.each([0, 1] as const)(
    "gives back every value as it was in column coding %i, and its JSON text by pageValue",
    (coding) => {
      const { page } = roundTrip(coding, JSON_VALUES);
      JSON_VALUES.forEach((v, i) => {
        expect(pageProp(page, 0, i), `value ${i}`).toEqual(v);
        expect(pageValue(page, 0, i)).toBe(asText(v));
        expect(pageProp(page, 1, i)).toBe(i);
      });
    },
  );

  it("codes a page of booleans (a synthetic mark) in a few bits each, packed", () => {
    const marks = Array.from({ length: 2000 }, (_, i) => i % 7 === 0);
    const plain = roundTrip(0, marks);
    const packed = roundTrip(1, marks);
    marks.forEach((m, i) => {
      expect(pageProp(packed.page, 0, i)).toBe(m);
    });
    // Two dictionary entries and 2000 two-bit codes, beside the u16 column and the geometry.
    expect(packed.bytes).toBeLessThan(plain.bytes - 2000 * 4);
  });

  it("refuses its page when a value is not JSON text, naming the page", () => {
    const b = encodePage(3, [feature(0, ["{not json", 1])], COLUMNS, 1);
    expect(() => decodePage(b, 3, crc32(b.subarray(8)), COLUMNS, "json.pack")).toThrow(
      /page 3 refused: column any: value 0 is not JSON/,
    );
  });
});

describe("inferColumn", () => {
  it.each<[string, unknown[], Omit<ColumnSpec, "name">]>([
    ["repeated strings", ["R2", "R3", "R2", null, "R2"], { type: "dict" }],
    ["distinct strings", ["1//DP1", "2//DP1", "3//DP1"], { type: "text" }],
    ["small integers", [0, 12, 254], { type: "u8" }],
    ["integers up to 65,534", [0, 255, 65_534], { type: "u16" }],
    ["larger integers", [65_535, 4_294_967_294], { type: "u32" }],
    ["decimals (1 place)", [1440.5, 3, 0.1], { type: "u16", scale: 10 }],
    ["decimals (5 places)", [150.85848, 151.2], { type: "u32", scale: 100_000 }],
    ["negative numbers", [-33.87571, 1], { type: "json" }],
    ["booleans", [true, false, null], { type: "json" }],
    ["numbers and strings", [1, "1"], { type: "json" }],
    ["objects", [{ a: 1 }], { type: "json" }],
    ["more than 6 decimals", [0.1234567], { type: "json" }],
    ["integers past u32", [2 ** 32], { type: "json" }],
    ["negative zero", [-0], { type: "json" }],
    ["a lone surrogate", ["\ud800"], { type: "json" }],
    ["nothing but nulls", [null, undefined], { type: "dict" }],
  ])("types %s so each reads back exactly", (_, values, want) => {
    expect(inferColumn("f", values)).toEqual({ name: "f", ...want });
  });

  it("reads back every value of an inferred numeric column exactly, through a page", () => {
    const values = [0, 0.5, 1440.25, 3.14153, 65.000001, null, 4294.967294];
    const spec = inferColumn("n", values);
    expect(spec).toEqual({ name: "n", type: "u32", scale: 1_000_000 });
    const features = values.map((v, i) => feature(i, [v, i]));
    const columns = [spec, { name: "id", type: "u16" } as const];
    const b = encodePage(0, features, columns, 1);
    const page = decodePage(b, 0, crc32(b.subarray(8)), columns, "n.pack");
    values.forEach((v, i) => {
      expect(pageValue(page, 0, i)).toBe(v);
    });
  });
});
