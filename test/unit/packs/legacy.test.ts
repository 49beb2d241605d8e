// Packs written before this format's optional parts existed (no feature order, no featureVertices section,
// controls on a "zones" layer) still load, answer lookups and assess. The fixture is tiny-pack.ts's pack as
// the encoder of commit 5e6ce04 wrote it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { siteFacts } from "../../../src/assess/facts.ts";
import { pointInFeature } from "../../../src/geo/pip.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { featureAt } from "../../../src/packs/lookup.ts";
import { parcelAt } from "../../../src/packs/spatial.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { D, X0, Y0 } from "./tiny-pack.ts";

const bytes = readFileSync(join(process.cwd(), "test", "fixtures", "packs", "tiny-legacy-v1.pack"));
const pack = decodePack(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));

describe("a pack from before index order and split control layers", () => {
  it("decodes with input order and no feature vertex section", () => {
    const parcels = pack.layers.get("parcels")!;
    expect(
      new TextDecoder().decode(
        bytes.subarray(24, 24 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)),
      ),
    ).not.toMatch(/featureVertices|"order"/);
    expect(parcels.indexOrder).toBe(false);
    expect(parcels.featureVertices).toBeNull();
    expect(pack.layers.get("transport")?.syntheticField).toBeNull();
    expect(pack.layers.get("transport")?.syntheticCount).toBe(3);
  });

  it("answers point lookups as a scan of its features does", () => {
    const parcels = pack.layers.get("parcels")!;
    for (let gx = -0.5; gx < 6; gx += 0.25) {
      for (let gy = -0.5; gy < 6; gy += 0.25) {
        const x = X0 + gx * D + 1e-7;
        const y = Y0 + gy * D + 1e-7;
        let expected = -1;
        for (let i = 0; i < parcels.count && expected < 0; i++) if (pointInFeature(parcels, i, x, y)) expected = i;
        expect(featureAt(parcels, x, y)).toBe(expected);
      }
    }
  });

  it("assesses a lot from the controls its zones carry", () => {
    const facts = siteFacts([pack], parcelAt([pack], X0 + D / 2, Y0 + D / 2)!);
    expect(facts.controls).toBeUndefined();
    // The main zone (largest share) first.
    expect(facts.zones.map((z) => [z.code, Number(z.share.toFixed(6)), z.fsr, z.heightM, z.minLotSizeM2])).toEqual([
      ["R2", 0.75, 0.5, 9.5, 450],
      ["R4", 0.25, 2, 22, 1000],
    ]);
    const r = scoreSite(facts);
    // 0.25 x 2 + 0.75 x 0.5; height and minimum lot size of the dominant zone, R2.
    expect(r.controls).toEqual({ fsr: 0.875, heightM: 9.5, minLotSizeM2: 450 });
    expect(r.demoData).toBe(true);
  });
});
