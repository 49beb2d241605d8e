import { dsvFormat } from "d3-dsv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSitesCsv } from "../../../src/batch/csv.ts";

const text = fc.string({
  unit: fc.constantFrom("a", "Z", " ", ",", ";", "\t", '"', "\n", "\r\n", "é", "1", "-"),
  maxLength: 12,
});
const coord = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map((v) => v.toFixed(5));

describe("parseSitesCsv round trip", () => {
  it("returns every field as written, whatever the delimiter and quoting", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(",", ";", "\t"),
        fc.boolean(),
        fc.array(fc.tuple(text, coord(-43, -10), coord(113, 153), text), { minLength: 1, maxLength: 50 }),
        (delimiter, crlf, rows) => {
          const body = dsvFormat(delimiter).formatRows([["name", "lat", "lon", "notes"], ...rows]);
          const csv = crlf ? body.replace(/\n(?=(?:[^"]*"[^"]*")*[^"]*$)/g, "\r\n") : body;
          const r = parseSitesCsv(`\ufeff${csv}\n`);
          if (!r.ok) throw new Error(r.detail);
          expect(r.delimiter).toBe(delimiter);
          expect(r.rows).toHaveLength(rows.length);
          r.rows.forEach((row, i) => {
            const [name, lat, lon, notes] = rows[i]!;
            expect(row.index).toBe(i);
            expect(row.input).toEqual({ name, lat, lon, notes });
            expect(row.lat).toBe(Number(lat));
            expect(row.lon).toBe(Number(lon));
            expect(row.problem).toBeUndefined();
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives each row the line where it starts", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.nat({ max: 3 })), { minLength: 1, maxLength: 20 }), (rows) => {
        let csv = "name,lat,lon\n";
        let line = 2;
        const expected: number[] = [];
        for (const [name, blanks] of rows) {
          csv += "\n".repeat(blanks);
          line += blanks;
          expected.push(line);
          const cell = dsvFormat(",").formatRows([[name]]);
          csv += `${cell},-33.8,151.2\n`;
          line += 1 + (name.match(/\r\n|\r|\n/g)?.length ?? 0);
        }
        const r = parseSitesCsv(csv);
        if (!r.ok) throw new Error(r.detail);
        expect(r.rows.map((x) => x.line)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
