// CSV export of scored sites: cells a spreadsheet would run as formulas are neutralised (OWASP CSV injection).
import { describe, expect, it } from "vitest";
import { csvCell, existingCell, sitesCsv } from "../../../web/src/csv.ts";
import { sitesGeoJson } from "../../../web/src/sites-geojson.ts";
import type { SiteRow } from "../../../web/src/site-row.ts";

describe("csvCell", () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\t=1", "'\t=1"],
    ["\r=1", `"'\r=1"`],
    ["\uFF1D1+1", "'\uFF1D1+1"],
    ["-", "'-"],
    ["-33.8 151.2", "'-33.8 151.2"],
  ])("%j becomes text: %j", (input, cell) => {
    expect(csvCell(input)).toBe(cell);
  });

  it.each([
    [-33.8, "-33.8"],
    ["-33.8136", "-33.8136"],
    [151.2, "151.2"],
    ["0", "0"],
    ["Parramatta", "Parramatta"],
    ["a, b", '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    [null, ""],
    [undefined, ""],
    ["a=b", "a=b"],
  ])("%j is kept: %j", (input, cell) => {
    expect(csvCell(input)).toBe(cell);
  });

  it("an uploaded row's hostile input and error text reach the file as text, the numbers as numbers", () => {
    const rows: SiteRow[] = [
      { kind: "error", index: 0, line: 2, input: { lot: "=cmd|'/C calc'!A0" }, detail: "@bad" },
      { kind: "error", index: 1, line: 3, input: { lat: "-33.8" }, detail: "-1 is not a lot" },
    ];
    const [head, first, second] = sitesCsv(rows).split("\n");
    expect(head).toBe(
      "line,lot,lat,lot_id,address,area_m2,score,rating,yield_basis,existing,rlv,as_is,margin_over_as_is,assumptions_version,reasons_or_error",
    );
    expect(first).toBe("2,'=cmd|'/C calc'!A0,,,,,,,,,,,,,'@bad");
    expect(second).toBe("3,,-33.8,,,,,,,,,,,,'-1 is not a lot");
  });
});

describe("existingCell", () => {
  it("says what the uplift was counted against, and when it was assumed", () => {
    expect(existingCell({ kind: "house", dwellings: 1, assumed: true })).toBe("house (assumed)");
    expect(existingCell({ kind: "dual_occupancy", dwellings: 2, assumed: false })).toBe("dual occupancy");
    expect(existingCell({ kind: "employment", dwellings: 0, floor_space_m2: 640, assumed: false })).toBe(
      "employment, 640 m²",
    );
    expect(existingCell(undefined)).toBe("");
  });
});

describe("sitesCsv", () => {
  it("keeps the uploaded columns as columns, and renames a result column the upload already uses", () => {
    const rows: SiteRow[] = [
      {
        kind: "error",
        index: 0,
        line: 2,
        input: { site: "Home, rear", lot_id: "1//DP1", budget: "900000" },
        detail: "x",
      },
      { kind: "error", index: 1, line: 3, input: { site: "Shop", lot_id: "2//DP2" }, detail: "y" },
    ];
    const [head, first, second] = sitesCsv(rows).split("\n");
    expect(head?.split(",").slice(0, 5)).toEqual(["line", "site", "lot_id", "budget", "result_lot_id"]);
    expect(first?.startsWith('2,"Home, rear",1//DP1,900000,')).toBe(true);
    expect(second?.startsWith("3,Shop,2//DP2,,")).toBe(true);
  });
});

describe("sitesGeoJson", () => {
  it("keeps each scored site's line and uploaded columns as properties, beside what scoring found and what it is worth", () => {
    const polygon = {
      type: "Polygon" as const,
      coordinates: [
        [
          [151, -33],
          [151.001, -33],
          [151.001, -33.001],
          [151, -33],
        ],
      ],
    };
    const scored = {
      kind: "result",
      index: 0,
      line: 2,
      input: { site: "Home", lot_id: "as uploaded", budget: "900000" },
      parcel: { lot_id: "1//DP1", address: "1 Main St", area_m2: 612, geojson: { type: "Feature", geometry: polygon } },
      score: 64,
      rating: "medium",
      feasibility: {
        yield_basis: "dual occupancy",
        existing: { kind: "strata", dwellings: 24, units: 24, strata_plan: "SP12345", assumed: false },
      },
      reasons: ["dual occupancy permitted"],
      value: { rlv: 1_250_000, as_is: 9_800_000, margin_over_as_is: -8_550_000, assumptions_version: 3 },
    } as unknown as SiteRow;
    const failed: SiteRow = { kind: "error", index: 1, line: 3, input: { site: "Shop" }, detail: "no lot" };
    const { features } = sitesGeoJson([scored, failed]);
    expect(features).toHaveLength(1);
    expect(features[0]?.geometry).toEqual(polygon);
    expect(features[0]?.properties).toEqual({
      line: 2,
      site: "Home",
      lot_id: "as uploaded",
      budget: "900000",
      result_lot_id: "1//DP1",
      address: "1 Main St",
      area_m2: 612,
      score: 64,
      rating: "medium",
      yield_basis: "dual occupancy",
      existing: "strata, 24 units (SP12345)",
      rlv: 1_250_000,
      as_is: 9_800_000,
      margin_over_as_is: -8_550_000,
      assumptions_version: 3,
      reasons: ["dual occupancy permitted"],
    });
  });
});
