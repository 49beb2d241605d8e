// Every lot of a world spanning the city's kinds of place is zoned in a current NSW Standard Instrument code,
// with an FSR, height and minimum lot size its zone takes.
import { describe, expect, it } from "vitest";
import { lotRecord } from "../../../src/packs/paged/lot-columns.ts";
import { optionsIn, ZONE_NAMES, type ZoneCode } from "../../../scripts/world/zones.ts";
import { packLots, smallPack } from "./small-world.ts";

// Rural fringe, a new estate, industry, the CBD, leafy north, inner terraces, a regional centre, the beaches.
const SUBURBS = ["Glenorie", "Oran Park", "Alexandria", "Sydney", "Hornsby", "Newtown", "Parramatta", "Cronulla"];
const ALLOWED = ["E1", "E2", "E3", "E4", "MU1", "R1", "R2", "R3", "R4", "RE1", "SP2", "C2"];

const records = (await packLots(await smallPack(SUBURBS, 8000))).map((h) =>
  lotRecord((name) => h.properties[name] ?? null),
);
const zones = records.flatMap((r) => r.facts.zones.map((z) => ({ ...z, lga: r.place.lga ?? "" })));

describe("the synthetic world's zoning", () => {
  it("uses only current Standard Instrument codes (no B or IN zones), named as the SI names them", () => {
    expect(zones.length).toBeGreaterThanOrEqual(records.length);
    for (const z of zones) {
      expect(ALLOWED).toContain(z.code);
      expect(z.name).toBe(ZONE_NAMES[z.code as ZoneCode]);
    }
    // The places chosen reach most of the list.
    expect(new Set(zones.map((z) => z.code)).size).toBeGreaterThanOrEqual(10);
  });

  it("gives each zone controls from its own values (R2 0.45-0.55:1 and 8.5-9.5 m, R4 1.5-2.5:1 and 18-30 m, a suburb's E2 3-8:1 and 40-120 m, none on RE1 and SP2)", () => {
    const within = (v: number | null, list: readonly number[]) =>
      list.length === 0 ? v === null : v !== null && list.includes(v);
    for (const z of zones) {
      const o = optionsIn(z.code as ZoneCode, z.lga);
      expect(within(z.fsr, o.fsr), `${z.code} fsr ${z.fsr}`).toBe(true);
      expect(within(z.heightM, o.height), `${z.code} height ${z.heightM}`).toBe(true);
      expect(within(z.minLotSizeM2, o.minLot), `${z.code} lot ${z.minLotSizeM2}`).toBe(true);
    }
    const range = (code: string, pick: (z: (typeof zones)[number]) => number | null): [number, number] => {
      const vs = zones.filter((z) => z.code === code).map(pick) as number[];
      expect(vs.length, code).toBeGreaterThan(0);
      return [Math.min(...vs), Math.max(...vs)];
    };
    const [r2f0, r2f1] = range("R2", (z) => z.fsr);
    expect(r2f0).toBeGreaterThanOrEqual(0.45);
    expect(r2f1).toBeLessThanOrEqual(0.55);
    const [r2h0, r2h1] = range("R2", (z) => z.heightM);
    expect(r2h0).toBeGreaterThanOrEqual(8.5);
    expect(r2h1).toBeLessThanOrEqual(9.5);
    const [r2l0, r2l1] = range("R2", (z) => z.minLotSizeM2);
    expect(r2l0).toBeGreaterThanOrEqual(450);
    expect(r2l1).toBeLessThanOrEqual(700);
    const [r4f0, r4f1] = range("R4", (z) => z.fsr);
    expect([r4f0 >= 1.5, r4f1 <= 2.5]).toEqual([true, true]);
    const [r4h0, r4h1] = range("R4", (z) => z.heightM);
    expect([r4h0 >= 18, r4h1 <= 30]).toEqual([true, true]);
  });

  it("maps Central Sydney's core at 8:1 and 110 m or more, the strategic centres' at 6:1 and 72 m or more, a suburb's E2 at most 8:1 and 120 m", () => {
    const e2 = (lgas: readonly string[], not = false) => {
      const list = zones.filter((z) => z.code === "E2" && lgas.includes(z.lga) !== not);
      expect(list.length, lgas.join()).toBeGreaterThan(0);
      return list;
    };
    for (const z of e2(["Sydney"]))
      expect([z.fsr ?? 0, z.heightM ?? 0]).toEqual([
        expect.toBeOneOf([8, 10, 12.5]),
        expect.toBeOneOf([110, 150, 235]),
      ]);
    for (const z of e2(["Parramatta"])) expect((z.fsr ?? 0) >= 6 && (z.heightM ?? 0) >= 72).toBe(true);
    for (const z of e2(["Sydney", "Parramatta", "Willoughby", "North Sydney", "Liverpool", "Penrith"], true)) {
      expect((z.fsr ?? 99) <= 8 && (z.heightM ?? 999) <= 120, `${z.lga} E2 ${z.fsr}:1 ${z.heightM} m`).toBe(true);
    }
  });

  it("maps every control a lot has from the values its zone takes (station bands included)", () => {
    for (const r of records) {
      const [main] = r.facts.zones;
      if (!main || r.facts.zones.length > 1 || !r.facts.controls) continue;
      const o = optionsIn(main.code as ZoneCode, r.place.lga ?? "");
      for (const c of r.facts.controls.fsr) expect(o.fsr).toContain(c.value);
      for (const c of r.facts.controls.heightM) expect(o.height).toContain(c.value);
      for (const c of r.facts.controls.minLotSizeM2) expect(o.minLot).toContain(c.value);
    }
  });
});
