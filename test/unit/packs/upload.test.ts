// Upload kernels in Node: .prj and crs recognition, reprojection accuracy, and the builder's per-feature checks.
import proj4 from "proj4";
import { describe, expect, it } from "vitest";
import { UnprocessableError } from "../../../src/errors.ts";
import { crsFromName, crsFromPrj } from "../../../src/packs/upload/crs.ts";
import { readGeoJson } from "../../../src/packs/upload/read-geojson.ts";
import { MAX_UPLOAD_FEATURES, UploadLayerBuilder } from "../../../src/packs/upload/build-layer.ts";
import { MGA56_PRJ } from "../../../scripts/pack/upload-fixtures.ts";

const ESRI_GDA94_MGA55 =
  'PROJCS["GDA_1994_MGA_Zone_55",GEOGCS["GCS_GDA_1994",DATUM["D_GDA_1994",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",10000000.0],PARAMETER["Central_Meridian",147.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
const OGC_MGA50 =
  'PROJCS["GDA94 / MGA zone 50",GEOGCS["GDA94",DATUM["Geocentric_Datum_of_Australia_1994",SPHEROID["GRS 1980",6378137,298.257222101,AUTHORITY["EPSG","7019"]],AUTHORITY["EPSG","6283"]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4283"]],PROJECTION["Transverse_Mercator"],PARAMETER["central_meridian",117],UNIT["metre",1],AUTHORITY["EPSG","28350"]]';
const WEB_MERCATOR =
  'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],UNIT["Meter",1.0]]';
const WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]';
const LAMBERT =
  'PROJCS["GDA94_Geoscience_Australia_Lambert",GEOGCS["GCS_GDA_1994",DATUM["D_GDA_1994",SPHEROID["GRS_1980",6378137.0,298.257222101]]],PROJECTION["Lambert_Conformal_Conic"],UNIT["Meter",1.0]]';

describe("projections", () => {
  it("recognises ESRI and OGC .prj files of MGA zones, Web Mercator and WGS84; refuses others", () => {
    expect(crsFromPrj(MGA56_PRJ)?.name).toBe("EPSG:7856");
    expect(crsFromPrj(ESRI_GDA94_MGA55)?.name).toBe("EPSG:28355");
    expect(crsFromPrj(OGC_MGA50)?.name).toBe("EPSG:28350");
    expect(crsFromPrj(WEB_MERCATOR)?.name).toBe("EPSG:3857");
    expect(crsFromPrj(WGS84)).toEqual({ name: "EPSG:4326", toWgs84: null });
    expect(crsFromPrj(LAMBERT)).toBeNull();
    expect(crsFromPrj("not a projection")).toBeNull();
  });

  it("recognises GeoJSON crs names", () => {
    expect(crsFromName("urn:ogc:def:crs:EPSG::28356")?.name).toBe("EPSG:28356");
    expect(crsFromName("EPSG:7855")?.name).toBe("EPSG:7855");
    expect(crsFromName("urn:ogc:def:crs:OGC:1.3:CRS84")?.name).toBe("EPSG:4326");
    expect(crsFromName("EPSG:2193")).toBeNull();
  });

  it("an MGA zone and Web Mercator round-trip to within a millimetre", () => {
    const sydney: [number, number] = [151.2093, -33.8688];
    for (const [code, def] of [
      ["EPSG:28356", "+proj=utm +zone=56 +south +ellps=GRS80 +units=m +no_defs"],
      ["EPSG:3857", "EPSG:3857"],
    ] as const) {
      const [x, y] = proj4("WGS84", def, sydney);
      const back = crsFromName(code)?.toWgs84?.(x, y) as [number, number];
      expect(Math.abs(back[0] - sydney[0]) * 92_000).toBeLessThan(0.001);
      expect(Math.abs(back[1] - sydney[1]) * 111_000).toBeLessThan(0.001);
    }
  });
});

const square = (x: number, y: number) => ({
  type: "Polygon",
  coordinates: [
    [
      [x, y],
      [x + 0.001, y],
      [x + 0.001, y + 0.001],
      [x, y + 0.001],
      [x, y],
    ],
  ],
});

function failure(fn: () => void): UnprocessableError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UnprocessableError) return err;
    throw err;
  }
  throw new Error("expected an UnprocessableError");
}

describe("UploadLayerBuilder", () => {
  it("names the feature whose geometry is of the wrong kind, degenerate or non-finite", () => {
    const b = new UploadLayerBuilder("parcels", null);
    b.add({ geometry: square(151, -33), properties: { lot_id: "1//DP1" } });
    const wrong = failure(() => b.add({ geometry: { type: "Point", coordinates: [151, -33] }, properties: {} }));
    expect(wrong.loc).toEqual(["body", "file", "features", 1]);
    expect(wrong.detail).toMatch(/^Feature 1: expected a Polygon or MultiPolygon for layer parcels, got Point/);
    const flat = {
      type: "Polygon",
      coordinates: [
        [
          [151, -33],
          [151.001, -33],
          [151.001, -33],
          [151, -33],
        ],
      ],
    };
    expect(failure(() => b.add({ geometry: flat, properties: {} })).detail).toMatch(/fewer than 3 distinct vertices/);
    const nan = {
      type: "Polygon",
      coordinates: [
        [
          [151, -33],
          [Number.NaN, -33],
          [151, -32],
          [151, -33],
        ],
      ],
    };
    expect(failure(() => b.add({ geometry: nan, properties: {} })).detail).toMatch(/not two finite numbers/);
  });

  it(`refuses feature ${MAX_UPLOAD_FEATURES + 1}`, () => {
    const b = new UploadLayerBuilder("transport", null);
    for (let i = 0; i < MAX_UPLOAD_FEATURES; i++) {
      b.add({ geometry: { type: "Point", coordinates: [151, -33] }, properties: { name: "s" } });
    }
    const err = failure(() => b.add({ geometry: { type: "Point", coordinates: [151, -33] }, properties: {} }));
    expect(err.type).toBe("too_many_features");
    expect(b.count).toBe(MAX_UPLOAD_FEATURES);
  });

  it("applies a field mapping before the layer's own names", () => {
    const b = new UploadLayerBuilder("parcels", null, { lot_id: "LOT_KEY" });
    b.add({ geometry: square(151, -33), properties: { LOT_KEY: "5//DP77" } });
    expect(b.finish().row(0)[0]).toBe("5//DP77");
  });
});

describe("readGeoJson", () => {
  const stream = (text: string) => new Blob([text]).stream();

  it("refuses what is not a FeatureCollection, and broken JSON, as 422", async () => {
    const b = () => new UploadLayerBuilder("parcels", null);
    await expect(readGeoJson(stream('{"type":"Feature"}'), b())).rejects.toThrow(/its type is "Feature"/);
    await expect(readGeoJson(stream('{"type":"FeatureCollection","features":[{"ty'), b())).rejects.toThrow(
      /not valid JSON|not a GeoJSON/,
    );
    await expect(readGeoJson(stream("PK\u0003\u0004garbage"), b())).rejects.toBeInstanceOf(UnprocessableError);
  });

  it("tells a CSV uploaded as a pack what it is and where CSVs go, in words, not the parser's states", async () => {
    const b = () => new UploadLayerBuilder("parcels", null);
    const csv = readGeoJson(stream("\uFEFFsite,lot_id\nHome,6//DP1813990\n"), b());
    await expect(csv).rejects.toThrow(
      'The file is not GeoJSON (it looks like a CSV): it begins "site,lot_id". A pack takes a GeoJSON FeatureCollection or a zipped Shapefile (.shp, .dbf and .prj together); to score sites listed in a CSV, use Batch scoring on the map.',
    );
    const cut = readGeoJson(stream('{"type":"FeatureCollection","features":[{"type":"Feature",}'), b());
    await expect(cut).rejects.toThrow(/^The file is not valid JSON: it holds an unexpected "}"\. A pack takes/);
    const short = readGeoJson(stream('{"type":"FeatureCollection","features":[{"type":"Feat'), b());
    await expect(short).rejects.toThrow(/^The file is not valid JSON: it ends before its JSON does \(cut short\?\)/);
    await expect(
      readGeoJson(stream('{"type":"FeatureCollection","features":[{"type":"Feature",}'), b()),
    ).rejects.not.toThrow(/BOM_OR_START|state|chunk/);
  });

  it("a crs after the first feature is refused, since the features before it were read as WGS84", async () => {
    const text = JSON.stringify({
      type: "FeatureCollection",
      features: [{ type: "Feature", geometry: square(151, -33), properties: {} }],
      crs: { type: "name", properties: { name: "EPSG:28356" } },
    });
    await expect(readGeoJson(stream(text), new UploadLayerBuilder("parcels", null))).rejects.toThrow(
      /crs member must come before the features/,
    );
  });
});
