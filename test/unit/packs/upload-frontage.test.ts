// An uploaded cadastre's frontages, read from the road reserves between its lots (issue 50, item 4).
import { describe, expect, it } from "vitest";
import { lotRecordAt, uploadLotsPack } from "../../../src/assess/upload-lots.ts";
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import { EARTH_RADIUS_M } from "../../../src/geo/distance.ts";
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import type { LotRecord } from "../../../src/packs/paged/lot-columns.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";

// Metres east and north of a point in Epping, to degrees.
const LON0 = 151.08;
const LAT0 = -33.77;
const M_PER_DEG = (EARTH_RADIUS_M * Math.PI) / 180;
const at = (x: number, y: number): [number, number] => [
  LON0 + x / (M_PER_DEG * Math.cos((LAT0 * Math.PI) / 180)),
  LAT0 + y / M_PER_DEG,
];
const rect = (x0: number, y0: number, x1: number, y1: number) => ({
  type: "Polygon" as const,
  coordinates: [[at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1), at(x0, y0)]],
});

// Two rows of five 15 m x 40 m lots facing each other across a 20 m road; `fields` of the front row's middle lot.
function upload(lots: ReturnType<typeof rect>[], frontage: (i: number) => number | null = () => null) {
  return memoryPack({
    id: "upload-block",
    version: "20261203T000000Z",
    meta: { title: "A street", attribution: "Uploaded by a@b.c", licence: "Private" },
    layers: [
      {
        name: "parcels",
        synthetic: false,
        fields: ["lot_id", "frontage_m"],
        geometry: { kind: "polygon", ...columnsFromGeometries(lots) },
        row: (i) => [`${i + 1}//DP1`, frontage(i)],
      },
    ],
  });
}
const block = [0, 1, 2, 3, 4].flatMap((k) => [rect(15 * k, 0, 15 * k + 15, 40), rect(15 * k, 60, 15 * k + 15, 100)]);

let objects = 0;
async function lotAt(bytes: Uint8Array, x: number, y: number): Promise<LotRecord> {
  const pack = new PagedPack(new MemorySource(`orgs/o/block-${++objects}.pack`, bytes), {
    cache: new PageCache(1 << 24),
  });
  const record = await lotRecordAt([pack], ...at(x, y));
  if (!record) throw new Error("no lot there");
  return record;
}

describe("an uploaded cadastre's frontage", () => {
  it("is the lot's boundary on the road reserve between the rows, on the street basis", async () => {
    const bytes = await uploadLotsPack(upload(block), { overlays: [], lots: [] }, { title: "A street" });
    const mid = await lotAt(bytes, 37, 20);
    expect(mid.facts.shape).toMatchObject({ frontageM: 15, frontageBasis: "street" });
    expect(mid.place.frontageM).toBe(15);
  });

  it("stays estimated from the lot's shape where the upload holds nothing across a street from it", async () => {
    const bytes = await uploadLotsPack(upload([rect(30, 0, 45, 40)]), { overlays: [], lots: [] }, { title: "One lot" });
    const lone = await lotAt(bytes, 37, 20);
    expect(lone.facts.shape?.frontageBasis).not.toBe("street");
  });

  it("keeps a frontage the upload's own fields give over the one read from the gaps", async () => {
    const given = (i: number) => (i === 4 ? 14.2 : null);
    const bytes = await uploadLotsPack(upload(block, given), { overlays: [], lots: [] }, { title: "A street" });
    expect((await lotAt(bytes, 37, 20)).facts.shape).toMatchObject({ frontageM: 14.2, frontageBasis: "street" });
  });
});
