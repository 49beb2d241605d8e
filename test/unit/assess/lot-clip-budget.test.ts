// Issue 47 (finding 3): a lot whose outline winds through an overlay's cells (a hostile spiral) is refused by the work
// its overlaps would take, counted in points clipped, while a natural outline of as many vertices is measured.
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { describe, expect, it } from "vitest";
import { LOT_CLIP_BUDGET, uploadLotsPack } from "../../../src/assess/upload-lots.ts";
import { UnprocessableError } from "../../../src/errors.ts";
import { clipWork } from "../../../src/geo/clip-pass.ts";
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { spiralRing } from "../../hostile/spiral.ts";

const CENTRE: [number, number] = [151.0, -33.815];
type Ring = [number, number][];
const closed = (ring: Ring): Ring => [...ring, ring[0] as [number, number]];

// A zone boundary of `n` vertices, wavy like a creek-side zone, of radius `r` degrees about the centre.
const wavy = (n: number, r: number): Ring =>
  Array.from({ length: n }, (_, k) => {
    const a = (2 * Math.PI * k) / n;
    const rr = r * (1 + 0.3 * Math.sin(7 * a));
    return [CENTRE[0] + r / 4 + rr * Math.cos(a), CENTRE[1] + rr * Math.sin(a)];
  });

function polygonLayer(name: string, fields: string[], geoms: AreaGeometry[], rows: unknown[][]) {
  return {
    name,
    synthetic: false,
    fields,
    geometry: { kind: "polygon" as const, ...columnsFromGeometries(geoms) },
    row: (i: number) => rows[i] as unknown[],
  };
}

function v1(id: string, layers: ReturnType<typeof polygonLayer>[], categoryField?: string): Pack {
  const meta = { title: id, attribution: "test", licence: "CC0" };
  const built = layers.map((l) => ({ ...l, categoryField }));
  return memoryPack({ id, version: "20261202T000000Z", meta, layers: built });
}

const zoning = (r: number) =>
  v1(
    "zoning",
    [
      polygonLayer(
        "zones",
        ["zone", "zone_name", "fsr", "height_m", "min_lot_m2"],
        [{ type: "Polygon", coordinates: [closed(wavy(1_000, r))] }],
        [["R3", "Medium Density Residential", 1, 12, 600]],
      ),
    ],
    "zone",
  );

const upload = (ring: Ring, lotId: string) =>
  v1("upload", [polygonLayer("parcels", ["lot_id"], [{ type: "Polygon", coordinates: [closed(ring)] }], [[lotId]])]);

describe("a lot's overlaps within a budget of points clipped", () => {
  it("refuses a 50,000-vertex spiral winding through a 1,000-vertex zone with a 422 naming it, at the budget", async () => {
    const spiral = spiralRing(50_001, { unit: 2e-7, center: CENTRE }).slice(0, -1) as Ring;
    const span = Math.max(...spiral.map((p) => p[0])) - Math.min(...spiral.map((p) => p[0]));
    clipWork.points = 0;
    const refused = await uploadLotsPack(upload(spiral, "1//SPIRAL"), { overlays: [zoning(span / 3)], lots: [] }, {})
      .then(() => null)
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(UnprocessableError);
    expect((refused as UnprocessableError).detail).toMatch(/^Lot 1\/\/SPIRAL: its outline \(50,001 positions\)/);
    expect((refused as UnprocessableError).type).toBe("too_complex");
    // Stopped at the budget, not after the whole quadratic clip (about 100,000,000 points).
    expect(clipWork.points).toBeLessThanOrEqual(LOT_CLIP_BUDGET + 60_000);
  });

  it("measures a natural 50,000-vertex outline over the same zone well within the budget", async () => {
    // A lot with a creek frontage: a disc whose edge meanders, 50,000 vertices.
    const r = 0.004;
    const lot: Ring = Array.from({ length: 50_000 }, (_, k) => {
      const a = (2 * Math.PI * k) / 50_000;
      const rr = r * (1 + 0.02 * Math.sin(400 * a));
      return [CENTRE[0] + rr * Math.cos(a), CENTRE[1] + rr * Math.sin(a)];
    });
    clipWork.points = 0;
    const bytes = await uploadLotsPack(upload(lot, "2//CREEK"), { overlays: [zoning(0.004)], lots: [] }, {});
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(clipWork.points).toBeLessThan(LOT_CLIP_BUDGET / 4);
  });
});
