import { describe, expect, it } from "vitest";
import { checksum32 } from "../../../src/packs/v1/checksum.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { PackFormatError } from "../../../src/packs/errors.ts";
import { FORMAT_VERSION } from "../../../src/packs/v1/format.ts";
import { D, tinyPackBytes, X0, Y0 } from "./tiny-pack.ts";

function refusal(bytes: Uint8Array, verify = true): string {
  try {
    decodePack(bytes, { verify });
  } catch (e) {
    expect(e).toBeInstanceOf(PackFormatError);
    return String(e);
  }
  throw new Error("expected the pack to be refused");
}

// Rewrites the checksum so a test can reach the checks that come after it.
function reseal(bytes: Uint8Array): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, checksum32(bytes.subarray(16)), true);
  return bytes;
}

describe("pack format", () => {
  it("round-trips header, layers, geometry and properties", () => {
    const bytes = tinyPackBytes();
    expect(bytes.byteLength % 8).toBe(0);
    const pack = decodePack(bytes);
    expect(pack.id).toBe("tiny");
    expect(pack.version).toBe("test-1");
    expect(pack.formatVersion).toBe(FORMAT_VERSION);
    expect(pack.meta).toEqual({
      title: "Tiny test pack",
      attribution: "hand-made",
      licence: "CC0",
      note: "unit test fixture",
    });
    expect([...pack.layers.keys()]).toEqual(["parcels", "zones", "flood", "transport"]);
    const parcels = pack.layers.get("parcels");
    expect(parcels?.kind).toBe("polygon");
    expect(parcels?.count).toBe(4);
    expect(parcels?.synthetic).toBe(false);
    expect(parcels?.props(3)).toEqual({ lot_id: "7/2/DP758001", area_m2: null });
    expect(parcels?.coords[0]).toBe(X0);
    expect(parcels?.featureOffsets[4]).toBe(5);
    const stops = pack.layers.get("transport");
    expect(stops?.kind).toBe("point");
    expect(stops?.count).toBe(3);
    expect(stops?.props(1)).toEqual({ name: "East station", mode: "train", stop_id: "E" });
    expect(pack.bbox[0]).toBeCloseTo(X0 - D, 12);
    expect(pack.bbox[1]).toBeCloseTo(Y0 - 0.01, 12);
  });

  it("reads the same properties each time, whatever a caller did to an earlier copy", () => {
    const parcels = decodePack(tinyPackBytes()).layers.get("parcels");
    const first = parcels?.props(3) as Record<string, unknown>;
    first.lot_id = "changed";
    expect(parcels?.props(3)).toEqual({ lot_id: "7/2/DP758001", area_m2: null });
  });

  it("views the input bytes instead of copying them (zero-copy)", () => {
    const bytes = tinyPackBytes();
    const pack = decodePack(bytes);
    expect(pack.layers.get("parcels")?.coords.buffer).toBe(bytes.buffer);
    expect(pack.layers.get("parcels")?.index?.data).toBe(bytes.buffer);
  });

  it("encodes byte-identically twice", () => {
    expect(Buffer.from(tinyPackBytes()).equals(Buffer.from(tinyPackBytes()))).toBe(true);
  });

  it("copies once when handed an unaligned slice", () => {
    const bytes = tinyPackBytes();
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    expect(decodePack(shifted.subarray(3)).layers.get("parcels")?.count).toBe(4);
  });

  it("refuses a flipped byte with a checksum mismatch", () => {
    const bytes = tinyPackBytes();
    const parcels = decodePack(bytes).layers.get("parcels");
    const at = (parcels?.coords.byteOffset ?? 0) + 3;
    bytes[at] = (bytes[at] as number) ^ 0x10;
    expect(refusal(bytes)).toMatch(
      /^PackFormatError: checksum mismatch: header says 0x[0-9a-f]{8}, content hashes to 0x[0-9a-f]{8}$/,
    );
  });

  it("refuses a wrong version", () => {
    const bytes = tinyPackBytes();
    bytes[4] = 2;
    expect(refusal(bytes)).toBe("PackFormatError: expected pack format v1, got v2");
  });

  it("refuses wrong magic bytes", () => {
    const bytes = tinyPackBytes();
    bytes[0] = 0x50;
    expect(refusal(bytes)).toBe("PackFormatError: not a pack file: bad magic bytes (expected GAPK)");
  });

  it("refuses a file shorter than its header", () => {
    expect(refusal(tinyPackBytes().subarray(0, 10))).toBe(
      "PackFormatError: file too short: 10 bytes, the header alone needs 24",
    );
  });

  it("refuses a truncated file by naming the layer that runs past its end", () => {
    const bytes = tinyPackBytes();
    const cut = bytes.slice(0, bytes.byteLength - 8);
    expect(refusal(cut)).toMatch(
      /^PackFormatError: layer transport extends past end of file \(section propData ends at byte \d+, file has \d+\)$/,
    );
  });

  it("refuses a file cut inside its directory", () => {
    expect(refusal(tinyPackBytes().slice(0, 40))).toMatch(/^PackFormatError: directory extends past end of file/);
  });

  it("refuses a layer whose section is stretched past the end even when resealed", () => {
    const bytes = tinyPackBytes();
    const text = new TextDecoder().decode(bytes);
    const m = /"name":"parcels".*?"coords":\[(\d+),(\d+)\]/.exec(text);
    expect(m).not.toBeNull();
    const [whole, off, len] = m as unknown as [string, string, string];
    const stretched = String(Number(len) + bytes.byteLength).slice(0, len.length);
    // Same digit count keeps the directory length, so only the bound check can catch it.
    const bigger =
      stretched.length === len.length && Number(stretched) > Number(len) ? stretched : "9".repeat(len.length);
    const patched = whole.replace(`[${off},${len}]`, `[${off},${bigger}]`);
    const start = text.indexOf(whole);
    bytes.set(new TextEncoder().encode(patched), start);
    expect(refusal(reseal(bytes))).toMatch(
      /^PackFormatError: layer parcels (extends past end of file|section coords has)/,
    );
  });

  it("refuses a header whose declared length disagrees", () => {
    const bytes = tinyPackBytes();
    new DataView(bytes.buffer).setUint32(16, bytes.byteLength + 8, true);
    expect(refusal(bytes)).toBe(
      `PackFormatError: file length mismatch: header says ${bytes.byteLength + 8} bytes, got ${bytes.byteLength}`,
    );
  });

  it("refuses a directory that is not JSON", () => {
    const bytes = tinyPackBytes();
    bytes[24] = 0x7d;
    expect(refusal(bytes)).toBe("PackFormatError: directory is not valid JSON");
  });

  it("skips the checksum only when asked", () => {
    const bytes = tinyPackBytes();
    const at = bytes.byteLength - 1;
    bytes[at] = (bytes[at] as number) ^ 1;
    expect(refusal(bytes)).toMatch(/checksum mismatch/);
    expect(decodePack(bytes, { verify: false }).id).toBe("tiny");
  });

  it("never crashes on random damage: every outcome is a pack or a PackFormatError", () => {
    const clean = tinyPackBytes();
    let seed = 7;
    for (let k = 0; k < 300; k++) {
      if (k % 3 === 0) seed = (seed * 48271) % 2147483647;
      const bytes = clean.slice(0, k % 3 === 0 ? seed % clean.byteLength : clean.byteLength);
      for (let f = 0; f < 3 && bytes.byteLength > 0; f++) {
        seed = (seed * 48271) % 2147483647;
        bytes[seed % bytes.byteLength] = seed & 0xff;
      }
      try {
        const pack = decodePack(bytes, { verify: k % 2 === 0 });
        for (const layer of pack.layers.values()) if (layer.count > 0) layer.props(0);
      } catch (e) {
        expect(e).toBeInstanceOf(PackFormatError);
      }
    }
  });
});
