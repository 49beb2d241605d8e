// The sidecar's bit-packing: any ints of any width come back as written, and a float32's sortable bits keep its
// order and give back the very float.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitsFor, fromSortableBits, packBits, sortableBits, unpackBits } from "../../../src/search/sidecar/bits.ts";

describe("sidecar bits", () => {
  it("unpacks what it packed, for every width from 1 to 32 bits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 32 }),
        fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 300 }),
        (width, raw) => {
          const values = raw.map((v) => (width === 32 ? v >>> 0 : v % 2 ** width));
          const out = new Uint32Array(values.length);
          unpackBits(packBits(values, width), width, values.length, out);
          expect([...out]).toEqual(values);
        },
      ),
    );
  });

  it("holds 0..n in bitsFor(n) bits and no fewer", () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 31 }), (n) => {
        const w = bitsFor(n);
        expect(2 ** w).toBeGreaterThan(n);
        if (w > 1) expect(2 ** (w - 1)).toBeLessThanOrEqual(n);
      }),
    );
  });

  it("orders floats by their sortable bits and gives each float back exactly", () => {
    const f = fc.float({ noNaN: true }).map((x) => Math.fround(x));
    fc.assert(
      fc.property(f, f, (a, b) => {
        expect(Object.is(fromSortableBits(sortableBits(a)), a)).toBe(true);
        if (a < b) expect(sortableBits(a)).toBeLessThan(sortableBits(b));
      }),
    );
  });
});
