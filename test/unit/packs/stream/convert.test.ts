// `convert --lots`: a pack of layers (the committed demo, v2, or as v1 wrote it) as a v2 lots pack, every lot's facts
// what the kernels find over the pack it came from.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../../scripts/pack/cli.ts";
import { readPackBytes } from "../../../../src/packs/pack-bytes.ts";
import { lotRecordFrom } from "../../../../src/assess/lot-record.ts";
import { PageCache } from "../../../../src/packs/paged/page-cache.ts";
import { openPack } from "../../../../src/packs/paged/reader.ts";
import { readHeader } from "../../../../src/packs/paged/schema.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";
import { PARCELS, parcelFromFeature } from "../../../../src/packs/spatial.ts";
import { haversineM } from "../../../../src/geo/distance.ts";
import { STATION_MODES } from "../../../../src/scoring/constants.ts";
import type { Pack } from "../../../../src/packs/types.ts";
import { asStored, recordsOf } from "./fixture.ts";
import { v1Bytes } from "../v1-committed.ts";

// The nearest railway, metro or light rail station within 5 km by a scan of every transport point (no index).
function nearestStationByScan(pack: Pack, lon: number, lat: number): { name: string; distanceM: number } | null {
  const t = pack.layers.get("transport");
  let best: { name: string; distanceM: number } | null = null;
  for (let i = 0; i < (t?.count ?? 0); i++) {
    const props = t?.props(i) ?? {};
    if (!STATION_MODES.includes(String(props.mode).toLowerCase())) continue;
    const d = haversineM(lon, lat, t?.coords[2 * i] as number, t?.coords[2 * i + 1] as number);
    if (d <= 5_000 && (best === null || d < best.distanceM)) best = { name: String(props.name), distanceM: d };
  }
  return best;
}

const DIR = mkdtempSync(join(tmpdir(), "stream-convert-"));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const load = (f: string) => readPackBytes(readFileSync(f), f);
// The demo and suburbs as v1 wrote them, the converter's other input.
const V1_DEMO = join(DIR, "sydney-demo.v1.pack");
const V1_SUBURBS = join(DIR, "sydney-suburbs.v1.pack");
writeFileSync(V1_DEMO, v1Bytes("sydney-demo"));
writeFileSync(V1_SUBURBS, v1Bytes("sydney-suburbs"));

describe("npm run pack -- convert --lots", () => {
  it.each([
    ["packs/sydney-demo.pack (v2)", "packs/sydney-demo.pack", "packs/sydney-suburbs.pack", 2],
    ["the demo as v1 wrote it", V1_DEMO, V1_SUBURBS, 1],
  ])(
    "turns %s into a v2 lots pack whose every lot reads back as lotRecordFrom over the pack it came from, its nearest station as a scan of the stations finds it",
    async (_what, input, suburbs, format) => {
      const out = join(DIR, `sydney-demo.lots-from-v${format}.pack`);
      await main(["convert", "--lots", input, out, "--context", suburbs]);
      const bytes = new Uint8Array(readFileSync(out));
      const demo = load(input);
      expect(demo.formatVersion).toBe(format);
      const context = [demo, load(suburbs)];
      const parcels = demo.layers.get(PARCELS);
      expect(parcels).toBeDefined();
      const count = parcels?.count ?? 0;
      expect(readHeader(bytes, out).featureCount).toBe(count);

      const got = await recordsOf(bytes);
      expect(got.size).toBe(count);
      let withSuburb = 0;
      let behindBus = 0;
      for (let i = 0; i < count; i++) {
        const parcel = parcelFromFeature(demo, i);
        const want = asStored(lotRecordFrom(context, parcel));
        const stored = got.get(parcel.lotId ?? "");
        expect(stored, parcel.lotId ?? `lot ${i}`).toEqual(want);
        if (want.place.suburb !== null) withSuburb++;
        // The nearest-station column, checked against a plain scan of the stations as well as the kernel.
        const scan = nearestStationByScan(demo, ...parcel.centroid);
        const station = stored?.facts.nearestStation;
        expect(station?.name ?? null, `${parcel.lotId} station`).toBe(scan?.name ?? null);
        expect(station?.distanceM ?? null, `${parcel.lotId} station distance`).toBe(
          scan === null ? null : Math.fround(scan.distanceM),
        );
        if (stored?.facts.nearestStop?.mode === "bus" && station !== null && station !== undefined) behindBus++;
      }
      // Most demo lots have a bus stop nearer than their station: the column is what finds those stations.
      expect(behindBus).toBeGreaterThan(count / 2);
      // The suburbs came from the context pack: the demo pack has no suburbs layer of its own.
      expect(demo.layers.has("suburbs")).toBe(false);
      expect(withSuburb).toBe(count);

      // A lot found through the lot-id index, its geometry within the 1e-7 degree quantisation.
      const pack = await openPack(new MemorySource(`convert-test-v${format}.pack`, bytes), {
        cache: new PageCache(),
        log: () => {},
      });
      const p = parcelFromFeature(demo, 123);
      const { features } = await pack.byLotId(p.lotId ?? "");
      expect(features).toHaveLength(1);
      const ring = features[0]?.geometry.coordinates[0]?.[0] ?? [];
      const want = p.polygon.type === "Polygon" ? p.polygon.coordinates[0] : p.polygon.coordinates[0]?.[0];
      expect(ring).toHaveLength(want?.length ?? -1);
      ring.forEach((v, k) => {
        expect(Math.abs((v[0] as number) - (want?.[k]?.[0] as number))).toBeLessThanOrEqual(0.5e-7 + 1e-12);
        expect(Math.abs((v[1] as number) - (want?.[k]?.[1] as number))).toBeLessThanOrEqual(0.5e-7 + 1e-12);
      });
    },
  );

  it("refuses a v2 lots pack as input with a sentence", async () => {
    const out = join(DIR, "again.pack");
    await main(["convert", "--lots", "packs/sydney-demo.pack", out]);
    await expect(Promise.resolve(main(["convert", "--lots", out, join(DIR, "x.pack")]))).rejects.toThrow(
      /again.pack is a v2 lots pack already: convert --lots takes a pack of layers/,
    );
  });
});
