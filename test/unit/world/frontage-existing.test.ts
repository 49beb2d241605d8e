// The world's lots front their streets and record what stands on them (issue 50, items 4 and 5; packs/README.md).
import { describe, expect, it } from "vitest";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { type SiteFacts, scoreSite } from "../../../src/scoring/index.ts";
import { COLLECTIVE_SALE } from "../../../src/scoring/rules/strata.ts";
import { PARCEL_FIELDS } from "../../../scripts/world/context-packs.ts";
import { isOpen } from "../../../scripts/world/open-land.ts";
import { smallWorld } from "./small-world.ts";

// Leafy, inner, estate and industrial suburbs: houses, flats near stations, new estates and employment land.
const SUBURBS = ["Lane Cove", "Crows Nest", "Oran Park", "Wetherill Park"];
const built = smallWorld(SUBURBS, 6000);
const col = (name: string) => PARCEL_FIELDS.indexOf(name);
const lots = built.flatMap((b) =>
  b.plan.lots.map((l, i) => ({ b, l, i, row: b.rows[i] as unknown[], cell: b.plan.cells[l.cell] })),
);
const builtBlocks = new Set(
  built.flatMap((b) =>
    b.plan.lots.filter((l) => l.zone !== "RE1" && l.zone !== "C2").map((l) => `${b.plan.suburb.index}:${l.cell}`),
  ),
);

describe("the world's frontages", () => {
  it("are each lot for sale's width along its address street wherever its block is built on", () => {
    let checked = 0;
    for (const { b, l, row } of lots) {
      // A park's or bushland's stretch of a built block fronts a street only where one passes its edge.
      if (!builtBlocks.has(`${b.plan.suburb.index}:${l.cell}`) || isOpen(l.zone)) continue;
      expect(row[col("frontage_m")]).toBe(l.u1 - l.u0);
      checked++;
    }
    expect(checked).toBeGreaterThan(4000);
  });

  it("are measured on a street, so a lot whose depth is shorter than its width still fronts with its width", () => {
    const wide = lots.filter(
      ({ b, l }) => builtBlocks.has(`${b.plan.suburb.index}:${l.cell}`) && !isOpen(l.zone) && l.u1 - l.u0 > l.v1 - l.v0,
    );
    expect(wide.length).toBeGreaterThan(0);
    for (const { l, row } of wide) expect(row[col("frontage_m")]).toBe(l.u1 - l.u0);
  });

  it("are left to the estimate (null) only where no street meets a lot: parks and bushland away from the streets", () => {
    const none = lots.filter(({ row }) => row[col("frontage_m")] === null);
    expect(none.length).toBeGreaterThan(0);
    for (const { l } of none) expect(["RE1", "C2"]).toContain(l.zone);
  });
});

describe("what stands on the world's lots", () => {
  const kindOf = ({ row }: { row: unknown[] }) => row[col("existing_use")] as string;
  const share = (zone: string, kind: string) => {
    const inZone = lots.filter(({ l }) => l.zone === zone);
    return inZone.filter((x) => kindOf(x) === kind).length / inZone.length;
  };

  it("is recorded for every lot, the same on every build", () => {
    const again = smallWorld(SUBURBS, 6000);
    expect(again.map((b) => b.rows)).toEqual(built.map((b) => b.rows));
    for (const x of lots) expect(["house", "dual_occupancy", "strata", "vacant", "employment"]).toContain(kindOf(x));
  });

  it("keeps each kind's figures: a house 1 dwelling, a dual occupancy 2, a strata building its units and plan, employment its floor space", () => {
    for (const x of lots) {
      const [dwellings, plan, units, floor] = ["dwellings", "strata_plan", "units", "floor_space_m2"].map(
        (n) => x.row[col(n)],
      );
      const want = {
        house: [1, null, null, null],
        dual_occupancy: [2, null, null, null],
        vacant: [0, null, null, null],
      }[kindOf(x) as "house"];
      if (want) expect([dwellings, plan, units, floor]).toEqual(want);
      if (kindOf(x) === "strata") {
        expect(units).toBe(dwellings);
        expect(units as number).toBeGreaterThanOrEqual(2);
        expect(plan).toMatch(/^SP\d{3,6}$/);
      }
      if (kindOf(x) === "employment") {
        expect(dwellings).toBe(0);
        expect(floor as number).toBeGreaterThan(0);
      }
    }
  });

  it("is plausible by zone: R2 mostly houses, R4 mostly strata flats, employment land built on, parks and bushland vacant", () => {
    expect(share("R2", "house")).toBeGreaterThan(0.8);
    expect(share("R4", "strata")).toBeGreaterThan(0.3);
    expect(share("R4", "strata")).toBeLessThan(0.8);
    expect(share("E4", "employment")).toBeGreaterThan(0.9);
    expect(share("RE1", "vacant")).toBe(1);
    expect(share("C2", "vacant")).toBe(1);
  });

  it("is what a strata lot's score reads: its units standing, and the collective sale it takes", () => {
    const strata = lots.find((x) => kindOf(x) === "strata");
    expect(strata).toBeDefined();
    const { b, i } = strata as (typeof lots)[number];
    const { place: _place, facts } = lotRecordFrom([b.pack], parcelFromFeature(b.pack, i));
    const r = scoreSite({ ...facts, polygon: parcelFromFeature(b.pack, i).polygon as SiteFacts["polygon"] });
    expect(r.existing.kind).toBe("strata");
    expect(r.existingDwellings).toBe(strata?.row[col("units")]);
    expect(r.reasons.some((x) => x.includes(`(${COLLECTIVE_SALE.clause})`))).toBe(true);
    expect(r.frontageBasis).toBe("street");
  });
});
