import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseSitesCsv } from "../../../src/batch/csv.ts";
import type { CsvRejection, ParsedCsv } from "../../../src/batch/csv.ts";

function fixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/csv/${name}`, import.meta.url), "utf8");
}

function parsed(text: string, opts?: { maxRows?: number }): ParsedCsv {
  const r = parseSitesCsv(text, opts);
  if (!r.ok) throw new Error(`expected a parse, got: ${r.detail}`);
  return r;
}

function rejected(text: string, opts?: { maxRows?: number }): string {
  const r: ParsedCsv | CsvRejection = parseSitesCsv(text, opts);
  if (r.ok) throw new Error("expected a rejection");
  return r.detail;
}

describe("parseSitesCsv: fixtures", () => {
  it("reads an Excel export with BOM, CRLF and stray trailing delimiters", () => {
    const text = fixture("excel-bom-crlf.csv");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const r = parsed(text);
    expect(r.mode).toBe("latlon");
    expect(r.delimiter).toBe(",");
    expect(r.columns.slice(0, 4)).toEqual(["Site Name", "Address", "Latitude", "Longitude"]);
    expect(r.locationColumns).toEqual({ lat: "Latitude", lon: "Longitude" });
    expect(r.rows).toHaveLength(2);
    expect(r.rows[0]).toEqual({
      index: 0,
      line: 2,
      input: {
        "Site Name": "Newtown corner",
        Address: "12 King St, Newtown NSW 2042",
        Latitude: "-33.8968",
        Longitude: "151.1794",
      },
      extra: { "Site Name": "Newtown corner", Address: "12 King St, Newtown NSW 2042" },
      lat: -33.8968,
      lon: 151.1794,
    });
    expect(r.rows[1]?.line).toBe(3);
    expect(r.notes).toEqual([]);
  });

  it("detects semicolons and keeps commas inside fields", () => {
    const r = parsed(fixture("semicolon.csv"));
    expect(r.delimiter).toBe(";");
    expect(r.rows.map((x) => [x.lat, x.lon])).toEqual([
      [-33.8915, 151.2767],
      [-33.7969, 151.1803],
    ]);
    expect(r.rows[0]?.extra).toEqual({ name: "Bondi", notes: "corner lot, north facing" });
    expect(r.rows[1]?.problem).toBeUndefined();
  });

  it("accepts decimal commas in a semicolon file", () => {
    const r = parsed(fixture("semicolon-decimal-comma.csv"));
    expect(r.delimiter).toBe(";");
    expect(r.rows.map((x) => [x.lat, x.lon])).toEqual([
      [-33.8915, 151.2767],
      [-33.7969, 151.1803],
    ]);
    expect(r.rows[0]?.input["Latitude"]).toBe("-33,8915");
  });

  it("handles quoted delimiters, escaped quotes and embedded newlines, with true line numbers", () => {
    const r = parsed(fixture("quoted.csv"));
    expect(r.rows).toHaveLength(2);
    expect(r.rows[0]?.input).toEqual({
      name: "Smith, J",
      address: '1 "The Strand"\nLevel 2, Sydney',
      lat: "-33.8688",
      lon: "151.2093",
      notes: "multi\r\nline\nnote",
    });
    expect(r.rows[0]?.line).toBe(2);
    expect(r.rows[1]?.line).toBe(6);
    expect(r.rows[1]?.lat).toBe(-33.87);
  });

  it("carries every other column through unchanged", () => {
    const r = parsed(fixture("extra-columns.csv"));
    expect(r.rows[0]?.extra).toEqual({
      reference: "A-001",
      "site name": "Corner shop",
      address: "1 Smith St",
      owner: "Jones",
      budget: "1200000",
    });
    expect(r.rows[1]?.extra).toEqual({
      reference: "A-002",
      "site name": "Warehouse",
      address: "2 Smith St",
      owner: "",
      budget: "",
    });
    expect(Object.keys(r.rows[0]?.input ?? {})).toEqual([
      "reference",
      "site name",
      "address",
      "owner",
      "latitude",
      "longitude",
      "budget",
    ]);
  });

  it("ignores blank lines and lines of only delimiters or spaces", () => {
    const r = parsed(fixture("blank-trailing-lines.csv"));
    expect(r.rows.map((x) => [x.index, x.line, x.lat])).toEqual([
      [0, 3, -33.8688],
      [1, 6, -33.87],
    ]);
  });

  it("matches headers regardless of case, padding and underscores", () => {
    const r = parsed(fixture("mixed-case-headers.csv"));
    expect(r.locationColumns).toEqual({ lat: "LAT", lon: "Lng" });
    expect(r.rows[1]).toMatchObject({ lat: -27.4698, lon: 153.0251, extra: { Site_Name: "B" } });
  });

  it("reads a lot number file", () => {
    const r = parsed(fixture("lot-number.csv"));
    expect(r.mode).toBe("lot");
    expect(r.locationColumns).toEqual({ lot: "Lot Number" });
    expect(r.rows.map((x) => [x.lotNumber, x.problem])).toEqual([
      ["1/DP12345", undefined],
      ["2/DP12345", undefined],
      ["", "lot number is empty"],
    ]);
    expect(r.rows[0]?.lat).toBeUndefined();
    expect(r.rows[1]?.input["Lot Number"]).toBe("  2/DP12345  ");
    expect(r.rows[0]?.extra).toEqual({ Owner: "Smith" });
  });

  it("accepts lot_id as a lot number column", () => {
    const r = parsed(fixture("lot-id.csv"));
    expect(r.mode).toBe("lot");
    expect(r.rows[0]?.lotNumber).toBe("7/SP5678");
  });

  it("accepts exactly 50 rows and rejects 51", () => {
    expect(parsed(fixture("rows-50.csv")).rows).toHaveLength(50);
    expect(rejected(fixture("rows-51.csv"))).toBe("Too many rows: 51. At most 50 sites per upload.");
  });

  it("applies a custom row limit", () => {
    expect(rejected(fixture("rows-50.csv"), { maxRows: 10 })).toBe("Too many rows: 50. At most 10 sites per upload.");
    expect(parsed(fixture("rows-51.csv"), { maxRows: 100 }).rows).toHaveLength(51);
  });

  it("rejects an empty file", () => {
    expect(rejected(fixture("empty.csv"))).toBe("The file is empty.");
    expect(rejected(fixture("whitespace-only.csv"))).toBe("The file is empty.");
    expect(rejected(",,,\r\n,,\n \t \n")).toBe("The file is empty.");
  });

  it("rejects a file with only a header", () => {
    expect(rejected(fixture("header-only.csv"))).toBe("The file has no data rows (only a header).");
  });

  it("reads a tab-separated file", () => {
    const r = parsed(fixture("tab-separated.csv"));
    expect(r.delimiter).toBe("\t");
    expect(r.rows.map((x) => [x.lat, x.lon])).toEqual([
      [-42.8821, 147.3272],
      [-12.4634, 130.8456],
    ]);
    expect(r.rows[1]?.extra["Address"]).toBe("2 Smith St; Darwin");
  });

  it("reads x/y columns as longitude/latitude and says so", () => {
    const r = parsed(fixture("xy-columns.csv"));
    expect(r.locationColumns).toEqual({ lat: "Y", lon: "X" });
    expect(r.rows[0]).toMatchObject({ lat: -31.9505, lon: 115.8605 });
    expect(r.notes).toEqual(["Using column X as longitude and Y as latitude."]);
  });

  it("explains what is wrong with each bad row", () => {
    const r = parsed(fixture("bad-rows.csv"));
    const problems = Object.fromEntries(r.rows.map((x) => [x.input["name"] ?? "", x.problem ?? null]));
    expect(problems).toEqual({
      ok: null,
      text: "latitude 'abc' is not a number",
      swapped:
        "latitude and longitude look swapped: latitude 151.2, longitude -33.9 (in Australia latitude is -44 to -9 and longitude 112 to 154)",
      range: "latitude -95 is out of range (-90 to 90)",
      "cape town":
        "the point (latitude -33.9, longitude 18.4) is outside Australia (latitude -44 to -9, longitude 112 to 154)",
      north: "latitude 33.87 is north of the equator; Australian latitudes are negative (did you mean -33.87?)",
      "empty lat": "latitude is empty",
      "both empty": "latitude and longitude are empty",
    });
    expect(r.rows.find((x) => x.input["name"] === "text")).toMatchObject({ lat: null, lon: 151.2 });
    expect(r.rows.find((x) => x.input["name"] === "swapped")).toMatchObject({ lat: 151.2, lon: -33.9 });
  });

  it("rejects a file without location columns, naming what it found and what is accepted", () => {
    expect(rejected(fixture("no-location.csv"))).toBe(
      "No recognisable location columns. Found: name, addr. Accepted: latitude/longitude (lat, latitude, y / lon, lng, long, longitude, x), lot_number (lot, lot_id, lotidstring, lot number), a street address (address; or street and suburb, with postcode optional), or lot_ids (a group of adjoining lots scored as one site, ids split by ;).",
    );
  });

  it("rejects a latitude without a longitude", () => {
    expect(rejected(fixture("latitude-only.csv"))).toMatch(
      /^Found a latitude column \(latitude\) but no longitude column\. Accepted: /,
    );
  });

  it("rejects a file whose first line is data", () => {
    expect(rejected(fixture("headerless.csv"))).toMatch(
      /^The first line looks like data, not column names \(-33\.8688, 151\.2093\)\. Add a header row/,
    );
  });

  it("prefers latitude/longitude when a lot number column is also present", () => {
    const r = parsed(fixture("latlon-and-lot.csv"));
    expect(r.mode).toBe("latlon");
    expect(r.rows[0]?.extra).toEqual({ lot_number: "1/DP1" });
    expect(r.rows[0]?.lotNumber).toBeUndefined();
    expect(r.notes[0]).toMatch(/using latitude\/longitude/);
  });

  it("uses lot numbers when the coordinate columns are all empty", () => {
    const r = parsed(fixture("lot-template-empty-coords.csv"));
    expect(r.mode).toBe("lot");
    expect(r.rows.map((x) => x.lotNumber)).toEqual(["1/DP1", "2/DP1"]);
    expect(r.notes[0]).toMatch(/lot numbers are used/);
  });
});

describe("parseSitesCsv: details", () => {
  it("strips only a leading BOM and handles a lone CR line ending", () => {
    const r = parsed("\ufefflat,lon\r-33.8688,151.2093\r-33.87,151.21");
    expect(r.rows.map((x) => x.line)).toEqual([2, 3]);
  });

  it("counts only non-blank rows towards the limit", () => {
    const body = Array.from({ length: 50 }, () => "-33.8,151.2\n\n").join("");
    expect(parsed(`lat,lon\n${body}\n\n`).rows).toHaveLength(50);
  });

  it("names blank and duplicate headers, and keeps extra cells of ragged rows", () => {
    const r = parsed("name,lat,lon,,name\nA,-33.8,151.2,x,B,overflow\nC,-33.8,151.2\n");
    expect(r.columns).toEqual(["name", "lat", "lon", "column 4", "name (2)"]);
    expect(r.rows[0]?.input).toEqual({
      name: "A",
      lat: "-33.8",
      lon: "151.2",
      "column 4": "x",
      "name (2)": "B",
      "column 6": "overflow",
    });
    expect(r.rows[1]?.input).toEqual({ name: "C", lat: "-33.8", lon: "151.2", "name (2)": "" });
  });

  it("accepts header spellings from the brief", () => {
    for (const [lat, lon] of [
      ["Latitude ", " LONGITUDE"],
      ["lat", "lng"],
      ["LAT", "long"],
      ["latitude (GDA2020)", "longitude (GDA2020)"],
    ]) {
      expect(parsed(`${lat},${lon}\n-33.8,151.2\n`).mode).toBe("latlon");
    }
    for (const lot of ["lot_number", " Lot Number", "LotNumber", "lot", "LOT_ID", "lotidstring", "Lot No."]) {
      expect(parsed(`${lot}\n1/DP1\n`).mode).toBe("lot");
    }
  });

  it("prefers named coordinates over x/y", () => {
    const r = parsed("x,y,lat,lon\n1,2,-33.8,151.2\n");
    expect(r.locationColumns).toEqual({ lat: "lat", lon: "lon" });
    expect(r.rows[0]?.extra).toEqual({ x: "1", y: "2" });
  });

  it("is not fooled by commas inside quoted header names of a semicolon file", () => {
    const r = parsed('"name, full";lat;lon\n"Smith, J";-33.8;151.2\n"Lee, K";-33.9;151.1\n');
    expect(r.delimiter).toBe(";");
    expect(r.rows[1]?.extra).toEqual({ "name, full": "Lee, K" });
  });

  it("picks the delimiter that the rows agree with", () => {
    const r = parsed("name;lat;lon;note,misc\nA;-33,8;151,2;x\nB;-33,9;151,1;y\n");
    expect(r.delimiter).toBe(";");
    expect(r.rows[0]).toMatchObject({ lat: -33.8, lon: 151.2 });
  });

  it("does not accept decimal commas in a comma-separated file", () => {
    const r = parsed('lat,lon\n"-33,8","151,2"\n');
    expect(r.rows[0]?.problem).toBe("latitude '-33,8' is not a number; longitude '151,2' is not a number");
  });

  it("accepts a typographic minus and a degree sign", () => {
    expect(parsed("lat,lon\n\u221233.8°,151.2 °\n").rows[0]).toMatchObject({ lat: -33.8, lon: 151.2 });
  });

  it("rejects NUL bytes in text", () => {
    expect(rejected("lat,lon\n\u0000\u0000")).toMatch(/binary/);
  });
});
