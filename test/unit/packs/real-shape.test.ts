// Packs built from layer files in the exact shape of the NSW downloads, then assessed and scored.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { siteFacts } from "../../../src/assess/facts.ts";
import { haversineM } from "../../../src/geo/distance.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { parcelAt, parcelByLot, zonesOnParcel } from "../../../src/packs/spatial.ts";
import type { ParcelHit } from "../../../src/packs/spatial.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { buildPack, main } from "../../../scripts/pack/cli.ts";

const dir = join(process.cwd(), "test", "fixtures", "nsw");
const files = {
  parcels: join(dir, "cadastre.geojson"),
  zoning: join(dir, "zoning.geojson"),
  fsr: join(dir, "fsr.geojson"),
  height: join(dir, "height.geojson"),
  lot_size: join(dir, "lot_size.geojson"),
  heritage: join(dir, "heritage.geojson"),
  transport: join(dir, "stops.txt"),
};
const built = await buildPack({
  id: "nsw-fixture",
  title: "NSW fixture",
  attribution: "hand-built fixture",
  licence: "CC0",
  files,
});
const pack = readPackBytes(built.bytes);
const packs = [pack];

function lot(id: string): ParcelHit {
  const hit = parcelByLot(packs, id);
  if (!hit) throw new Error(`no lot ${id}`);
  return hit;
}

const assess = (id: string) => {
  const facts = siteFacts(packs, lot(id));
  return { facts, result: scoreSite(facts) };
};

describe("building a pack from NSW-shaped downloads", () => {
  it("reads every layer under its official names, skipping what is not a polygon", () => {
    expect(built.layers).toEqual(["parcels", "zoning", "fsr", "height", "lot_size", "heritage", "transport"]);
    expect(built.warnings).toEqual(["zoning: skipped 1 features of the wrong geometry type"]);
    const zoning = pack.layers.get("zoning");
    expect(zoning?.count).toBe(2);
    const r4 = [0, 1].map((i) => zoning!.props(i)).find((p) => p.zone === "R4");
    expect(r4).toEqual({
      zone: "R4",
      zone_name: "High Density Residential",
      epi_name: "Fixture Local Environmental Plan 2024",
      lga: "FIXTURE",
    });
    const heights = pack.layers.get("height")!;
    expect([0, 1, 2].map((i) => heights.props(i)).find((p) => p.height_m === 22)).toEqual({
      height_m: 22,
      label: "21-22.9",
      clause: "Clause 4.3",
      epi_name: "Fixture Local Environmental Plan 2024",
    });
    // Lower-case keys in the lot size file map all the same.
    expect(pack.layers.get("lot_size")?.props(0)).toEqual({
      min_lot_m2: 450,
      label: "450",
      epi_name: "Fixture Local Environmental Plan 2024",
    });
    // Stored as a v2 pack of layers (each layer's features in Hilbert order on its pages; v1's index order is gone).
    expect(pack.formatVersion).toBe(2);
    for (const layer of pack.layers.values()) expect(layer.synthetic).toBe(false);
  });

  it("keys lots by lotidstring, or by lotnumber and planlabel when it is missing, and keeps cadid", () => {
    expect(lot("1//DP1048011").props).toMatchObject({
      lot_id: "1//DP1048011",
      cadid: "105000000",
      plan_label: "DP1048011",
      lot_number: "1",
    });
    expect(lot("Lot 4 DP1048011").lotId).toBe("4//DP1048011");
    expect(lot("lot 5 sec 3 dp 758001").lotId).toBe("5/3/DP758001");
    // Shape__Area is Web Mercator square metres (about 1.45 times the true area at Sydney): not the lot's area.
    const p = lot("1//DP1048011");
    expect(p.props.area_m2).toBeNull();
    expect(p.areaM2).toBeGreaterThan(800);
    expect(p.areaM2).toBeLessThan(840);
  });

  it("takes the stations of a GTFS stops.txt, not their platforms", () => {
    const stops = pack.layers.get("transport")!;
    expect(stops.count).toBe(2);
    expect([0, 1].map((i) => stops.props(i).name).sort()).toEqual(["Faraway Station", "Fixture Station"]);
    expect(stops.props(0).mode).toBe("train");
    expect(stops.syntheticCount).toBe(0);
  });

  it("is what `npm run pack -- build` writes (a v2 pack of layers), with --lot-size as the flag", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "pack-"));
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));
    const out = join(tmp, "x.pack");
    const flags = Object.entries(files).flatMap(([k, f]) => [`--${k.replace("_", "-")}`, f]);
    await main([
      "build",
      "--out",
      out,
      "--id",
      "nsw-fixture",
      "--title",
      "NSW fixture",
      "--attribution",
      "hand-built fixture",
      "--licence",
      "CC0",
      ...flags,
    ]);
    expect(Buffer.from(readFileSync(out)).equals(Buffer.from(built.bytes))).toBe(true);
    expect(readPackBytes(readFileSync(out)).formatVersion).toBe(2);
    await expect(
      Promise.resolve(main(["build", "--out", out, "--id", "x", "--title", "x", "--zones", files.zoning])),
    ).rejects.toThrow(/--zones is gone/);
    await expect(
      Promise.resolve(main(["build", "--format", "v1", "--out", out, "--id", "x", "--title", "x", ...flags])),
    ).rejects.toThrow(/build writes v2 only/);
  });
});

describe("assessing lots of the NSW-shaped pack", () => {
  it("reads one zone, one FSR and one height for a lot inside each", () => {
    const { facts, result } = assess("1//DP1048011");
    expect(facts.zones).toEqual([
      { code: "R4", name: "High Density Residential", share: 1, fsr: 3.5, heightM: 22, minLotSizeM2: null },
    ]);
    expect(facts.controls).toEqual({
      fsr: [{ value: 3.5, share: 1, label: "3.5" }],
      heightM: [{ value: 22, share: 1, label: "21-22.9" }],
      minLotSizeM2: [],
    });
    expect(result.controls).toEqual({ fsr: 3.5, heightM: 22, minLotSizeM2: null });
    expect(result.reasons.join(" ")).not.toMatch(/Split|mapped/);
    expect(result.demoData).toBe(false);
    expect(result.reasons[0]).toBe("Zoned R4 High Density Residential (100% of the lot).");
  });

  it("splits FSR where the lot straddles two FSR areas and applies each to its part", () => {
    const { facts, result } = assess("2//DP1048011");
    const shares = Object.fromEntries(facts.controls!.fsr.map((a) => [a.value, a.share]));
    expect(shares[3.5]).toBeCloseTo(0.25, 6);
    expect(shares[1]).toBeCloseTo(0.75, 6);
    expect(result.controlAreas.fsr).toEqual([
      { value: 1, share: 0.75, label: "1" },
      { value: 3.5, share: 0.25, label: "3.5" },
    ]);
    expect(result.controls.fsr).toBe(1.625);
    // The floor space of the form the yield uses: the FSR's, held to what its height and setbacks allow.
    const used = result.yieldOptions.find((o) => o.permitted && o.basis === result.yieldBasis);
    expect(result.gfaPotentialM2).toBe(used?.gfaM2);
    expect(result.gfaPotentialM2).toBeLessThanOrEqual(Math.floor(result.areaM2 * 1.625 + 0.5));
    expect(result.reasons).toContain(
      "Split FSR: 1.00:1 on 75% and 3.50:1 on 25% of the lot; each applies to its part, 1.63:1 over the lot.",
    );
    // The one zone's FSR is the one over most of it.
    expect(facts.zones[0]?.fsr).toBe(1);
  });

  it("splits height where the lot straddles two height areas and uses the one over most of it", () => {
    const { facts, result } = assess("3//DP1048011");
    const shares = Object.fromEntries(facts.controls!.heightM.map((a) => [a.value, a.share]));
    expect(shares[12]).toBeCloseTo(0.25, 6);
    expect(shares[22]).toBeCloseTo(0.75, 6);
    expect(result.controls.heightM).toBe(22);
    expect(result.controlAreas.heightM.map((a) => [a.value, a.share, a.label])).toEqual([
      [22, 0.75, "21-22.9"],
      [12, 0.25, "12-12.9"],
    ]);
    expect(result.reasons).toContain(
      "Split height limit: 22 m on 75% and 12 m on 25% of the lot; the 22 m limit of the largest area is used.",
    );
    expect(facts.heritageShare).toBeCloseTo(0.5, 6);
    expect(facts.heritageNames).toEqual(["Fixture Conservation Area"]);
  });

  it("unions a heritage item with the conservation area around it", () => {
    const { facts, result } = assess("4//DP1048011");
    expect(facts.heritageShare).toBe(1);
    expect(facts.heritageNames.sort()).toEqual(["Fixture Conservation Area", "Terrace house"]);
    // feasibility-v2: the item on the lot is what counts (the conservation area around it is the lesser constraint).
    expect(result.heritageKind).toBe("item");
    expect(result.reasons).toContain(
      "Heritage item on the lot (Fixture Conservation Area, Terrace house): potential × 0.40.",
    );
  });

  it("scores a split-zoned section lot from each control's own layer", () => {
    const { facts, result } = assess("5/3/DP758001");
    expect(result.zones.map((z) => [z.code, z.share, z.fsr, z.heightM, z.minLotSizeM2])).toEqual([
      ["R2", 0.6, 0.5, 9, 450],
      ["R4", 0.4, 1, 22, null],
    ]);
    expect(result.dominantZone?.code).toBe("R2");
    expect(result.controls).toEqual({ fsr: 0.7, heightM: 9, minLotSizeM2: 450 });
    expect(result.reasons).toContain("Split zoning: R2 60%, R4 40%; R2 is dominant.");
    expect(result.reasons).toContain(
      "Minimum lot size: 450 m² on 60% of the lot, none mapped on the rest; the 450 m² minimum of the largest area is used.",
    );
    expect(facts.controls?.minLotSizeM2[0]?.share).toBeCloseTo(0.6, 6);
  });

  it("gives each zone feature the controls over its part, for callers that read them from the zone", () => {
    const zones = zonesOnParcel(packs, lot("5/3/DP758001").polygon);
    expect(
      zones.map((z) => [z.zone, Number(z.share.toFixed(6)), z.props.fsr, z.props.height_m, z.props.min_lot_m2]),
    ).toEqual([
      ["R2", 0.6, 0.5, 9, 450],
      ["R4", 0.4, 1, 22, null],
    ]);
    expect(zones[0]?.props.zone_name).toBe("Low Density Residential");
  });

  it("measures the distance to the real station from the GTFS file, ignoring the nearer platform", () => {
    const p = lot("1//DP1048011");
    const { result } = assess("1//DP1048011");
    expect(result.transport?.name).toBe("Fixture Station");
    expect(result.transport?.mode).toBe("train");
    expect(result.transport?.distanceM).toBe(Math.round(haversineM(p.centroid[0], p.centroid[1], 151.0045, -33.8098)));
  });

  it("finds the same lots by point", () => {
    expect(parcelAt(packs, 151.00005, -33.8099)?.lotId).toBe("1//DP1048011");
    expect(parcelAt(packs, 151.00095, -33.8097)?.lotId).toBe("5/3/DP758001");
    expect(parcelAt(packs, 151.0011, -33.8099)).toBeNull();
  });
});
