// A .dbf that does not match its .shp: the `shapefile` reader would give the extra shapes no attributes; refused with the counts.
import { describe, expect, it } from "vitest";
import { UnprocessableError } from "../../../src/errors.ts";
import { readShapefileZip } from "../../../src/packs/upload/read-shapefile.ts";
import { UploadLayerBuilder } from "../../../src/packs/upload/build-layer.ts";
import { dbfShortZip, dbfTruncatedZip, lotsDbf, lotsZip, shpRecordClaimZip } from "../../hostile/shapefile.ts";

async function refusal(zip: Uint8Array): Promise<UnprocessableError> {
  const err = await readShapefileZip(zip, new UploadLayerBuilder("parcels", null)).catch((e: unknown) => e);
  if (err instanceof UnprocessableError) return err;
  throw new Error(`expected an UnprocessableError, got ${String(err)}`);
}

describe("the .dbf must hold one record per shape", () => {
  it("a matching .dbf reads every lot with its id", async () => {
    const builder = new UploadLayerBuilder("parcels", null);
    await readShapefileZip(lotsZip(5, lotsDbf(5)), builder);
    expect(builder.count).toBe(5);
    expect(builder.finish().row(4)[0]).toBe("5//DP9004");
  });

  it("fewer records than shapes is 422 naming both files and counts", async () => {
    const err = await refusal(dbfShortZip());
    expect(err.detail).toBe("lots.dbf holds 3 records but lots.shp holds 5: each shape needs one row of attributes");
    expect(err).toMatchObject({ loc: ["body", "file"], type: "dbf_mismatch" });
  });

  it("more records than shapes is refused the same way", async () => {
    expect((await refusal(lotsZip(2, lotsDbf(4)))).detail).toBe(
      "lots.dbf holds 4 records but lots.shp holds 2: each shape needs one row of attributes",
    );
  });

  it("a truncated .dbf is 422 saying how much of it is there", async () => {
    expect((await refusal(dbfTruncatedZip())).detail).toBe(
      "lots.dbf is truncated: its header declares 5 records (170 bytes) but it holds 117 bytes, 2 whole records",
    );
  });

  it("a header declaring fewer records than the file holds still has to match the shapes", async () => {
    expect((await refusal(lotsZip(5, lotsDbf(5, 4)))).detail).toMatch(
      /^lots\.dbf holds 4 records but lots\.shp holds 5/,
    );
  });

  it("a .shp record claiming more bytes than the file holds is 422 before the reader allocates its claim", async () => {
    const err = await refusal(shpRecordClaimZip());
    expect(err.detail).toBe("Record 2 of lots.shp claims 2,147,483,646 bytes but the file has 400 left");
    expect(err).toMatchObject({ loc: ["body", "file"], type: "shapefile_invalid" });
  });
});
