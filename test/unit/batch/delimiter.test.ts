import { describe, expect, it } from "vitest";
import { detectDelimiter, sampleFieldCounts } from "../../../src/batch/delimiter.ts";
import { normaliseHeader } from "../../../src/batch/columns.ts";
import { parseCoordinate } from "../../../src/batch/rows.ts";

describe("detectDelimiter", () => {
  it("chooses comma, semicolon or tab", () => {
    expect(detectDelimiter("a,b\n1,2\n")).toBe(",");
    expect(detectDelimiter("a;b\n1;2\n")).toBe(";");
    expect(detectDelimiter("a\tb\n1\t2\n")).toBe("\t");
  });

  it("defaults to comma for a single column", () => {
    expect(detectDelimiter("lot_number\n1/DP1\n")).toBe(",");
  });

  it("ignores delimiters inside quotes, including quoted newlines", () => {
    expect(detectDelimiter('"a,b,c";d\n"x\n,,,";y\n')).toBe(";");
    expect(sampleFieldCounts('"a,b,c";d\n"x\n,,,";y\n', ";")).toEqual([2, 2]);
  });

  it("lets row agreement beat a busier header", () => {
    expect(detectDelimiter("a;b;c, d, e, f\n1;2;3\n4;5;6\n")).toBe(";");
  });

  it("skips leading blank lines", () => {
    expect(detectDelimiter("\n\n;;\nlat;lon\n1;2\n")).toBe(";");
  });
});

describe("normaliseHeader", () => {
  it("folds case, spacing, underscores and unit suffixes", () => {
    expect(
      ["Latitude ", "LAT", " Lot Number", "lot_number", "LotNumber", "Longitude (GDA94)", "lot-id"].map(
        normaliseHeader,
      ),
    ).toEqual(["latitude", "lat", "lotnumber", "lotnumber", "lotnumber", "longitude", "lotid"]);
  });
});

describe("parseCoordinate", () => {
  it("is strict about what counts as a number", () => {
    expect(parseCoordinate(" -33.8688 ", false)).toBe(-33.8688);
    expect(parseCoordinate("+151", false)).toBe(151);
    expect(parseCoordinate(".5", false)).toBe(0.5);
    expect(parseCoordinate("1e1", false)).toBe(10);
    for (const bad of ["", "abc", "12abc", "0x10", "1,5", "Infinity", "NaN", "--1"])
      expect(parseCoordinate(bad, false)).toBeNull();
    expect(parseCoordinate("1,5", true)).toBe(1.5);
    expect(parseCoordinate("1,234,5", true)).toBeNull();
  });
});
