// The report request as the route validates it: defaults, bounds, and per-type geometry errors located exactly.
import { describe, expect, it } from "vitest";
import { ReportGenerateRequestSchema, MAX_SITES } from "../../../src/report/schema.ts";
import { toValidationIssues, type ValidationIssue } from "../../../src/http/validation.ts";

const square = [
  [
    [151.17, -33.89],
    [151.171, -33.89],
    [151.171, -33.891],
    [151.17, -33.891],
    [151.17, -33.89],
  ],
];

// The same square 0.002 degrees east: apart from it, so the two make a valid MultiPolygon.
const east = [square[0]!.map(([x, y]) => [(x as number) + 0.002, y as number])];

function issues(body: unknown): ValidationIssue[] {
  const r = ReportGenerateRequestSchema.safeParse(body);
  if (r.success) return [];
  return toValidationIssues("json", r.error, body);
}

const geoms = (...g: unknown[]) => ({ scores: [], parcel_geojsons: g });

describe("a valid request", () => {
  it("takes defaults for pack_id, location and top_n", () => {
    const r = ReportGenerateRequestSchema.parse({
      scores: [{}],
      parcel_geojsons: [{ type: "Point", coordinates: [151.17, -33.89] }],
    });
    expect(r).toMatchObject({ pack_id: "", location: null, top_n: 5 });
  });

  it("accepts any JSON object as a score, and Point, Polygon and MultiPolygon geometries", () => {
    const body = {
      scores: [{ anything: [1, 2, { deep: true }] }, {}, { score: "not a number" }],
      parcel_geojsons: [
        { type: "Point", coordinates: [151.17, -33.89, 12] },
        { type: "Polygon", coordinates: square },
        { type: "MultiPolygon", coordinates: [square, east] },
      ],
      location: "Newtown",
      top_n: 50,
    };
    expect(issues(body)).toEqual([]);
  });
});

describe("geometry errors are located inside parcel_geojsons", () => {
  it("a Point without valid coordinates: 422 at the Point's coordinates", () => {
    const body = geoms(
      { type: "Point", coordinates: [151.17, -33.89] },
      { type: "Point", coordinates: [151.17, -33.89] },
      { type: "Point", coordinates: ["a", 1] },
    );
    expect(issues(body)).toEqual([
      expect.objectContaining({ loc: ["body", "parcel_geojsons", 2, "coordinates"], type: "value_error" }),
    ]);
  });

  it("a Point with no coordinates field: missing", () => {
    expect(issues(geoms({ type: "Point" }))).toEqual([
      expect.objectContaining({
        loc: ["body", "parcel_geojsons", 0, "coordinates"],
        type: "missing",
        msg: "Field required",
      }),
    ]);
  });

  it("a Point given as [latitude, longitude] is refused with a hint", () => {
    const [issue] = issues(geoms({ type: "Point", coordinates: [-33.89, 151.17] }));
    expect(issue?.loc).toEqual(["body", "parcel_geojsons", 0, "coordinates"]);
    expect(issue?.msg).toContain("longitude first");
  });

  it("an unclosed ring: 422 at that ring", () => {
    const open = [
      [
        [151.17, -33.89],
        [151.171, -33.89],
        [151.171, -33.891],
        [151.17, -33.891],
      ],
    ];
    const [issue] = issues(geoms({ type: "Polygon", coordinates: square }, { type: "Polygon", coordinates: open }));
    expect(issue).toMatchObject({ loc: ["body", "parcel_geojsons", 1, "coordinates", 0], type: "value_error" });
    expect(issue?.msg).toContain("not closed");
  });

  it("a bad position deep in a MultiPolygon: 422 at that position", () => {
    const bad = [
      [
        [151.17, -33.89],
        [151.171, -33.89],
        [151.171, null],
        [151.17, -33.891],
        [151.17, -33.89],
      ],
    ];
    const [issue] = issues(geoms({ type: "MultiPolygon", coordinates: [square, bad] }));
    expect(issue?.loc).toEqual(["body", "parcel_geojsons", 0, "coordinates", 1, 0, 2]);
  });

  it("a ring enclosing no area (fewer than 3 distinct positions) is refused", () => {
    const flat = [
      [
        [151.17, -33.89],
        [151.17, -33.89],
        [151.171, -33.89],
        [151.17, -33.89],
      ],
    ];
    expect(issues(geoms({ type: "Polygon", coordinates: flat }))[0]?.loc).toEqual([
      "body",
      "parcel_geojsons",
      0,
      "coordinates",
      0,
    ]);
  });

  it("coordinates that are not a list: list_type", () => {
    expect(issues(geoms({ type: "Polygon", coordinates: "square" }))[0]).toMatchObject({
      loc: ["body", "parcel_geojsons", 0, "coordinates"],
      type: "list_type",
    });
  });

  it("an unknown type: literal_error at type naming the accepted kinds", () => {
    const [issue] = issues(
      geoms({
        type: "LineString",
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      }),
    );
    expect(issue).toMatchObject({
      loc: ["body", "parcel_geojsons", 0, "type"],
      type: "literal_error",
      input: "LineString",
    });
    expect(issue?.msg).toBe("Input should be 'Point', 'Polygon' or 'MultiPolygon'");
  });

  it("a geometry that is not an object: dict_type at its index", () => {
    expect(issues(geoms("POINT(151 -33)"))[0]).toMatchObject({ loc: ["body", "parcel_geojsons", 0] });
  });

  it("too many positions in one geometry is refused", () => {
    const ring = Array.from({ length: 10_001 }, (_, i) => [151 + Math.cos(i) / 1000, -33.9 + Math.sin(i) / 1000]);
    ring.push(ring[0] as number[]);
    expect(issues(geoms({ type: "Polygon", coordinates: [ring] }))[0]?.msg).toContain("at most 10,000 positions");
  });
});

describe("the other fields", () => {
  it.each([0, 51, -1])("top_n %s is outside 1 to 50: 422 at body.top_n", (n) => {
    const [issue] = issues({ scores: [{}], parcel_geojsons: [], top_n: n });
    expect(issue?.loc).toEqual(["body", "top_n"]);
    expect(issue?.type).toMatch(n > 50 ? "less_than_equal" : "greater_than_equal");
  });

  it("top_n must be an integer", () => {
    expect(issues({ scores: [{}], parcel_geojsons: [], top_n: 2.5 })[0]).toMatchObject({
      loc: ["body", "top_n"],
      type: "int_type",
    });
  });

  it("scores must be objects: each offender located", () => {
    const found = issues({ scores: [{}, 3, []], parcel_geojsons: [] }).map((i) => i.loc);
    expect(found).toEqual([
      ["body", "scores", 1],
      ["body", "scores", 2],
    ]);
  });

  it("both arrays required", () => {
    expect(issues({}).map((i) => [i.loc, i.type])).toEqual([
      [["body", "scores"], "missing"],
      [["body", "parcel_geojsons"], "missing"],
    ]);
  });

  it("a report needs at least one site", () => {
    expect(issues({ scores: [], parcel_geojsons: [] })).toEqual([
      expect.objectContaining({ loc: ["body", "parcel_geojsons"], type: "too_short" }),
    ]);
  });

  it(`at most ${MAX_SITES} sites per array`, () => {
    const many = Array.from({ length: MAX_SITES + 1 }, () => ({}));
    expect(issues({ scores: many, parcel_geojsons: [] })[0]).toMatchObject({
      loc: ["body", "scores"],
      type: "too_long",
    });
  });

  it("location may be null, not a number", () => {
    expect(issues({ scores: [{}], parcel_geojsons: [], location: null })).toEqual([]);
    expect(issues({ scores: [{}], parcel_geojsons: [], location: 5 })[0]).toMatchObject({
      loc: ["body", "location"],
      type: "string_type",
    });
  });
});
