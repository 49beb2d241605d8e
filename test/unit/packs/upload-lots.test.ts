// An uploaded lots layer as a v2 lots pack: which facts win (the organisation's overlays, else the public lot beneath).
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { inheritFacts, lotRecordAt, uploadLotsPack } from "../../../src/assess/upload-lots.ts";
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { encodePack as encodeV1 } from "../../../src/packs/v1/encode.ts";
import type { LotRecord } from "../../../src/packs/paged/lot-columns.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { timerChain } from "../../support/timer-chain.ts";
import { D, X0, Y0, square, tinyPackBytes } from "./tiny-pack.ts";

const tiny = decodePack(tinyPackBytes("tiny").slice().buffer);
// Roots are memoised per key across the isolate: every object here has a key of its own.
let objects = 0;
const paged = (key: string, bytes: Uint8Array) =>
  new PagedPack(new MemorySource(`${key}-${++objects}`, bytes), { cache: new PageCache(1 << 24) });

// One uploaded lot inside the tiny pack's parcel 0, wholly on its R2 side (R4 is its west quarter).
function uploaded(): Pack {
  const geom = {
    type: "Polygon" as const,
    coordinates: [square(X0 + 0.6 * D, Y0 + 0.4 * D, X0 + 0.9 * D, Y0 + 0.7 * D)],
  };
  const bytes = encodeV1({
    id: "upload-1",
    version: "20261127T000000Z",
    meta: { title: "Site lots", attribution: "Uploaded by a@b.c", licence: "Private" },
    layers: [
      {
        name: "parcels",
        synthetic: false,
        fields: ["lot_id"],
        geometry: { kind: "polygon", ...columnsFromGeometries([geom]) },
        row: () => ["9//DP9"],
      },
    ],
  });
  return decodePack(bytes.slice().buffer);
}

const here: [number, number] = [X0 + 0.75 * D, Y0 + 0.55 * D];

async function storedLot(bytes: Uint8Array): Promise<LotRecord> {
  const record = await lotRecordAt([paged("orgs/o/upload-1.pack", bytes)], ...here);
  if (!record) throw new Error("no lot at the point");
  return record;
}

describe("uploadLotsPack", () => {
  it("with no overlay zoning, lends the public lot's zones, controls and hazards, keeping its own id and area", async () => {
    const publicLots = paged("public/tiny.pack", await convertToLotsPack(tiny, { context: [tiny] }));
    const beneath = await lotRecordAt([publicLots], ...here);
    expect(beneath?.facts.zones.map((z) => z.code)).toEqual(["R2", "R4"]);
    const upload = uploaded();
    const bytes = await uploadLotsPack(upload, { overlays: [], lots: [publicLots] }, { title: "Site lots" });
    const mine = await storedLot(bytes);
    expect(mine.facts.zones).toEqual(beneath?.facts.zones);
    expect(mine.facts.controls).toEqual(beneath?.facts.controls);
    expect(mine.facts.hazards).toEqual(beneath?.facts.hazards);
    expect(mine.facts.hazards.flood).toBeGreaterThan(0);
    expect(mine.facts.nearestStop).toEqual(beneath?.facts.nearestStop);
    expect(mine.facts.lotId).toBe("9//DP9");
    // Its own area (about 0.3 x 0.3 of a 0.001-degree square), not the public lot's.
    expect(mine.facts.areaM2).toBeLessThan(0.15 * (beneath?.facts.areaM2 ?? 0));
    expect(mine.facts.areaM2).toBeGreaterThan(0.05 * (beneath?.facts.areaM2 ?? 0));
  });

  it("with overlay zoning the organisation sees, its own kernels win over the public lot beneath", async () => {
    const publicLots = paged("public/tiny-2.pack", await convertToLotsPack(tiny, { context: [tiny] }));
    const bytes = await uploadLotsPack(uploaded(), { overlays: [tiny], lots: [publicLots] }, { title: "Site lots" });
    const mine = await storedLot(bytes);
    // Cut against its own outline: all R2 (the public lot is R2 and R4).
    expect(mine.facts.zones.map((z) => [z.code, z.share])).toEqual([["R2", 1]]);
  });

  it("with nothing beneath and no overlays, stores the lot with no zone rather than failing", async () => {
    const bytes = await uploadLotsPack(uploaded(), { overlays: [], lots: [] }, { title: "Site lots" });
    const mine = await storedLot(bytes);
    expect(mine.facts.zones).toEqual([]);
    expect(mine.facts.lotId).toBe("9//DP9");
  });
});

describe("uploadLotsPack in the request", () => {
  it("yields to the event loop every 250 lots, so other requests' timers run while 1,000 lots' facts are computed", async () => {
    const lots = Array.from({ length: 1_000 }, (_, i) => {
      const x = X0 + (i % 40) * (D / 50);
      const y = Y0 + Math.floor(i / 40) * (D / 50);
      return { type: "Polygon" as const, coordinates: [square(x, y, x + D / 60, y + D / 60)] };
    });
    const upload = memoryPack({
      id: "upload-many",
      version: "20261201T000000Z",
      meta: { title: "Many lots", attribution: "Uploaded by a@b.c", licence: "Private" },
      layers: [
        {
          name: "parcels",
          synthetic: false,
          fields: ["lot_id"],
          geometry: { kind: "polygon", ...columnsFromGeometries(lots) },
          row: (i) => [`${i + 1}//DP77`],
        },
      ],
    });
    // Another request's timer chain: it advances only when the build yields a macrotask.
    const stop = timerChain();
    await uploadLotsPack(upload, { overlays: [tiny], lots: [] }, { title: "Many lots" });
    expect(stop()).toBeGreaterThanOrEqual(3);
  });
});

describe("inheritFacts", () => {
  const record = (over: Partial<LotRecord["facts"]>, place: Partial<LotRecord["place"]> = {}): LotRecord => ({
    facts: {
      lotId: null,
      areaM2: 0,
      zones: [],
      hazards: { flood: 0, bushfire: 0 },
      heritageShare: 0,
      heritageNames: [],
      nearestStop: null,
      demoData: false,
      ...over,
    },
    place: { address: null, suburb: null, lga: null, frontageM: null, centreM: null, heritageKind: 0, ...place },
  });
  const zone = (code: string) => ({ code, name: null, share: 1, fsr: 1, heightM: 9, minLotSizeM2: 450 });

  it("a fact the organisation's overlays found wins over the lent one; the rest is lent", () => {
    const own = record({ lotId: "1//DP1", areaM2: 500, hazards: { flood: 0.4, bushfire: 0 } }, { frontageM: 12 });
    const beneath = record(
      { lotId: "2//DP2", areaM2: 900, zones: [zone("R3")], hazards: { flood: 0.1, bushfire: 0.2 } },
      { suburb: "Newtown", lga: "Inner West", frontageM: 20 },
    );
    const got = inheritFacts(own, beneath);
    expect(got.facts).toMatchObject({ lotId: "1//DP1", areaM2: 500, zones: [zone("R3")] });
    expect(got.facts.hazards).toEqual({ flood: 0.4, bushfire: 0.2 });
    expect(got.place).toMatchObject({ suburb: "Newtown", lga: "Inner West", frontageM: 12 });
  });

  it("overlay zoning keeps the whole overlay record", () => {
    const own = record({ zones: [zone("B4")] });
    expect(inheritFacts(own, record({ zones: [zone("R3")] }))).toBe(own);
  });
});
