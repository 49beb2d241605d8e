// packs/examples' zipped Shapefile: what `npm run pack -- example-lots` writes, in MGA zone 56 with its .prj.
import { readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import proj4 from "proj4";
import { describe, expect, it } from "vitest";
import { EXAMPLE_LOTS_ZIP, exampleLots } from "../../../scripts/pack/example-lots.ts";
import { type Feature, MGA56_PRJ, reproject, shapefileZip } from "../../../scripts/pack/shapefile-write.ts";
import { crsFromPrj } from "../../../src/packs/upload/crs.ts";

describe("the example lots", () => {
  const committed = new Uint8Array(readFileSync(EXAMPLE_LOTS_ZIP));

  it("are the bytes the generator writes from the cadastre fixture", () => {
    expect(shapefileZip(reproject(exampleLots()), MGA56_PRJ, "parramatta-lots")).toEqual(committed);
  });

  it("hold a .shp, .dbf and a GDA2020 / MGA zone 56 .prj, and every lot has its id", () => {
    const files = unzipSync(committed);
    expect(Object.keys(files).sort()).toEqual(["parramatta-lots.dbf", "parramatta-lots.prj", "parramatta-lots.shp"]);
    expect(crsFromPrj(new TextDecoder().decode(files["parramatta-lots.prj"]))?.name).toBe("EPSG:7856");
    const ids = exampleLots().map((f) => f.properties.lot_id);
    expect(ids).toEqual(["1//DP1048011", "2//DP1048011", "3//DP1048011", "4//DP1048011", "5/3/DP758001"]);
  });

  it("are in metres that go back to the fixture's longitude and latitude within a centimetre", () => {
    const lots = exampleLots();
    const back = proj4("+proj=utm +zone=56 +south +ellps=GRS80 +units=m +no_defs", "WGS84");
    reproject(lots).forEach((f, i) => {
      const mga = (f.geometry as { coordinates: number[][][] }).coordinates[0]?.[0] as number[];
      const wgs = ((lots[i] as Feature).geometry as { coordinates: number[][][] }).coordinates[0]?.[0] as number[];
      expect(mga[0]).toBeGreaterThan(300_000);
      const [lng, lat] = back.forward(mga);
      expect(Math.abs((lng as number) - (wgs[0] as number)) * 92_000).toBeLessThan(0.01);
      expect(Math.abs((lat as number) - (wgs[1] as number)) * 111_000).toBeLessThan(0.01);
    });
  });
});
