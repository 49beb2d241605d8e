// Hostile zips read by src/packs/upload/zip.ts: the work done (entries walked, bytes inflated) stays bounded by the bytes received.
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { TooLargeError, UnprocessableError } from "../../../src/errors.ts";
import { crc32 } from "../../../src/packs/crc32.ts";
import { MAX_DEFLATE_RATIO, MIN_INFLATE_STEP } from "../../../src/packs/upload/inflate-bounded.ts";
import { MAX_UNZIPPED_BYTES, readShapefileZip } from "../../../src/packs/upload/read-shapefile.ts";
import { UploadLayerBuilder } from "../../../src/packs/upload/build-layer.ts";
import { ZipError, newZipWork, unzipMembers } from "../../../src/packs/upload/zip.ts";
import { deflateBombZip, deflatedZeros, zip64EntryCountBomb, zipOf } from "../../hostile/zip.ts";

const MiB = 1024 * 1024;
// One inflation step near the ceiling: its input (plus a few bytes fflate held back) at deflate's greatest ratio.
const ONE_STEP = MAX_DEFLATE_RATIO * (MIN_INFLATE_STEP + 1024);
const all = () => true;

function refusal(fn: () => unknown): ZipError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ZipError) return err;
    throw err;
  }
  throw new Error("expected a ZipError");
}

describe("the generators", () => {
  it("the entry-count bomb is 184 bytes; the deflate stream of 4 GiB of zeros is ~4 MiB", () => {
    expect(zip64EntryCountBomb().length).toBe(184);
    expect(deflatedZeros(4 * 1024 * MiB).length).toBeLessThan(4.1 * MiB);
  });
});

describe("unzipMembers refuses hostile zips after bounded work", () => {
  it("a zip64 end record claiming 2^32-1 entries in a 51-byte directory: refused before one entry is walked", () => {
    const work = newZipWork();
    const err = refusal(() => unzipMembers(zip64EntryCountBomb(), all, MAX_UNZIPPED_BYTES, work));
    expect(err.message).toBe(
      "The file is not a readable zip archive: it claims 4,294,967,295 entries but its central directory of 51 bytes holds at most 1",
    );
    expect(work).toEqual({ entriesRead: 0, bytesInflated: 0 });
  });

  it("a central directory that does not fit in the file is refused", () => {
    const zip = zipSync({ "a.shp": new Uint8Array(10) });
    const view = new DataView(zip.buffer);
    view.setUint32(zip.length - 22 + 16, 1_000_000, true);
    expect(refusal(() => unzipMembers(zip, all, MAX_UNZIPPED_BYTES)).message).toMatch(
      /central directory \(\d+ bytes at offset 1,000,000\) does not fit in the file of \d+ bytes/,
    );
  });

  it("a .shp declaring 1,000 bytes that would inflate to 4 GiB stops within one step of 1,000 bytes", () => {
    const work = newZipWork();
    const err = refusal(() => unzipMembers(deflateBombZip(1000, 4 * 1024 * MiB), all, MAX_UNZIPPED_BYTES, work));
    expect(err.message).toBe("The zip member bomb.shp declares 1,000 bytes but inflates to more");
    expect(err.overBudget).toBe(false);
    expect(work.entriesRead).toBe(3);
    expect(work.bytesInflated).toBeGreaterThan(1000);
    expect(work.bytesInflated).toBeLessThanOrEqual(1000 + ONE_STEP);
  });

  it("a member declaring 8 MiB that would inflate to 1 GiB stops within one step of 8 MiB", () => {
    const work = newZipWork();
    const err = refusal(() => unzipMembers(deflateBombZip(8 * MiB, 1024 * MiB), all, MAX_UNZIPPED_BYTES, work));
    expect(err.message).toBe("The zip member bomb.shp declares 8,388,608 bytes but inflates to more");
    expect(work.bytesInflated).toBeLessThanOrEqual(8 * MiB + ONE_STEP);
  });

  it("declared sizes past the budget are refused as over budget before anything inflates", () => {
    const work = newZipWork();
    const err = refusal(() => unzipMembers(deflateBombZip(65 * MiB, 1000), all, MAX_UNZIPPED_BYTES, work));
    expect(err.overBudget).toBe(true);
    expect(err.message).toBe("The zip's members unpack to more than 64 MiB");
    expect(work.bytesInflated).toBe(0);
  });

  it("a member shorter than it declares, another method, encryption and a bad CRC-32 are refused by name", () => {
    expect(refusal(() => unzipMembers(deflateBombZip(1_000_000, 1000), all, MAX_UNZIPPED_BYTES)).message).toBe(
      "The zip member bomb.shp declares 1,000,000 bytes but holds 1,033",
    );
    const bzip = zipOf([{ name: "a.shp", data: new Uint8Array(8), method: 12, size: 8 }]);
    expect(refusal(() => unzipMembers(bzip, all, MAX_UNZIPPED_BYTES)).message).toBe(
      "The zip member a.shp is compressed with method 12 (bzip2): only stored (0) and deflate (8) can be read",
    );
    const stored = zipSync({ "a.dbf": new Uint8Array([1, 2, 3, 4]) }, { level: 0 });
    new DataView(stored.buffer).setUint16(6, 1, true);
    // The flag is read from the central directory entry, as every reader does.
    new DataView(stored.buffer).setUint16(30 + 5 + 4 + 8, 1, true);
    expect(refusal(() => unzipMembers(stored, all, MAX_UNZIPPED_BYTES)).message).toBe(
      "The zip member a.dbf is encrypted: upload it unencrypted",
    );
    const damaged = zipSync({ "a.dbf": new Uint8Array([1, 2, 3, 4]) }, { level: 0 });
    damaged[30 + 5] = 9;
    expect(refusal(() => unzipMembers(damaged, all, MAX_UNZIPPED_BYTES)).message).toBe(
      "The zip member a.dbf fails its CRC-32 check: the zip is damaged",
    );
  });

  it("reads what zip tools write, only the members kept, with work equal to their sizes", () => {
    const shp = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251);
    const zip = zipSync({ "x/a.shp": shp, "x/a.dbf": new Uint8Array(5000).fill(32), "x/readme.txt": shp });
    const work = newZipWork();
    const out = unzipMembers(zip, (name) => !name.endsWith(".txt"), MAX_UNZIPPED_BYTES, work);
    expect([...out.keys()]).toEqual(["x/a.shp", "x/a.dbf"]);
    expect(out.get("x/a.shp")).toEqual(shp);
    expect(work).toEqual({ entriesRead: 3, bytesInflated: 105_000 });
  });

  it("crc32 is the IEEE CRC-32", () => {
    expect(crc32(Uint8Array.from("123456789", (c) => c.charCodeAt(0)))).toBe(0xcbf43926);
  });
});

describe("readShapefileZip turns these into the service's refusals", () => {
  const read = (zip: Uint8Array) => readShapefileZip(zip, new UploadLayerBuilder("parcels", null));

  it("the entry-count bomb and the deflate bomb are 422 at body.file; over the budget is 413", async () => {
    const bomb = await read(zip64EntryCountBomb()).catch((e: unknown) => e);
    expect(bomb).toBeInstanceOf(UnprocessableError);
    expect(bomb).toMatchObject({ loc: ["body", "file"], type: "zip_invalid" });
    await expect(read(deflateBombZip(1000, 4 * 1024 * MiB))).rejects.toThrow(
      /declares 1,000 bytes but inflates to more/,
    );
    const big = await read(deflateBombZip(65 * MiB, 1000)).catch((e: unknown) => e);
    expect(big).toBeInstanceOf(TooLargeError);
  });
});
