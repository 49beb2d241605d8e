// The planning rules are data with their citations (issue 50, item 1): every Housing SEPP standard names its clause
// and commencement, and every reason that applies a rule names the clause it applied.
import { describe, expect, it } from "vitest";
import { scoreSite } from "../../../src/scoring/index.ts";
import { FORM_OF_BASIS } from "../../../src/scoring/permissibility.ts";
import { BUILDING_SEPARATION, FLOOR_TO_FLOOR } from "../../../src/scoring/rules/apartment-design-guide.ts";
import {
  HOUSING_STANDARDS,
  LMR_AREA,
  LMR_EXCLUSIONS,
  LMR_FLATS,
  MID_RISE_INNER_STOREYS,
  MID_RISE_OUTER,
  MID_RISE_OUTER_STOREYS,
  R2_DUAL_OCCUPANCY,
  TOD_FLATS,
} from "../../../src/scoring/rules/housing-sepp.ts";
import { TOD_AREA } from "../../../src/scoring/rules/housing-sepp.ts";
import { COLLECTIVE_SALE, ownersNeeded } from "../../../src/scoring/rules/strata.ts";
import { HOUSING_FORMS, LAND_USE_TABLES, landUseTable } from "../../../src/scoring/rules/land-use.ts";
import { currentZone } from "../../../src/scoring/zones.ts";
import { EXAMPLES } from "./worked-examples.ts";

const results = Object.values(EXAMPLES).map((f) => scoreSite(f));

describe("the Housing SEPP rules as data", () => {
  it("give every standard its clause, its commencement and zones", () => {
    for (const s of HOUSING_STANDARDS) {
      expect(s.clause).toMatch(/^Housing SEPP 2021 (s \d+\(\d+\)|Ch \d)$/);
      expect(s.commenced).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(s.zones.length).toBeGreaterThan(0);
    }
    expect(new Set(HOUSING_STANDARDS.map((s) => s.clause)).size).toBe(HOUSING_STANDARDS.length);
  });

  it("are what the scoring applies: the outer area's apartments at s 180(3)'s 1.5:1", () => {
    const outer = scoreSite({
      ...EXAMPLES.r3NearStation,
      nearestStop: { name: "Petersham", mode: "train", distanceM: 700 },
    });
    const option = outer.yieldOptions.find((o) => o.basis === "mid_rise_apartments");
    expect(option?.clause).toBe(MID_RISE_OUTER.clause);
    expect(option?.rule).toContain(`FSR ${MID_RISE_OUTER.maxFsr?.toFixed(2)}:1`);
  });
});

describe("every reason that applies a rule", () => {
  it("cites s 168(2) as applying only in a low and mid rise housing area, as a screen elsewhere", () => {
    const outside = scoreSite(EXAMPLES.yieldOne);
    expect(outside.policy.area).toBe("none");
    const dual = outside.reasons.find((x) => x.startsWith("Dual occupancy"));
    expect(dual).toContain("figures as a screen; outside a low and mid rise housing area the LEP governs");
    const inside = scoreSite(EXAMPLES.r3NearStation);
    expect(inside.policy.area).toBe("lmr_inner");
    expect(inside.yieldOptions.find((o) => o.basis === "dual_occupancy")?.clause).toBe("Housing SEPP 2021 s 168(2)");
  });

  it("names the clause of each form of housing it tested", () => {
    let tested = 0;
    for (const r of results) {
      for (const o of r.yieldOptions) {
        const reason = r.reasons.find((x) => x.includes(o.rule));
        expect(reason, `${r.lotId} ${o.basis}`).toContain(`(${o.clause}):`);
        tested++;
      }
    }
    expect(tested).toBeGreaterThan(10);
  });

  it("names the clause of the policy area it placed the lot in, or of the exclusion that kept it out", () => {
    const want = { tod: TOD_AREA.clause, lmr_inner: LMR_AREA.clause, lmr_outer: LMR_AREA.clause };
    const seen = new Set<string>();
    for (const r of results) {
      const area = r.policy.area;
      if (area !== "none") {
        expect(
          r.reasons.some((x) => x.includes(`(${want[area]})`)),
          `${r.lotId} ${area}`,
        ).toBe(true);
        seen.add(area);
      } else if (r.policy.excludedBy !== null) {
        expect(
          r.reasons.some((x) => x.includes(r.policy.excludedBy as string) && x.includes(LMR_EXCLUSIONS.clause)),
        ).toBe(true);
        seen.add("excluded");
      }
    }
    // The worked examples reach a TOD precinct, an inner area and an exclusion.
    expect(seen.has("tod") && seen.has("lmr_inner") && seen.has("excluded")).toBe(true);
  });
});

describe("the Standard Instrument's land use tables as data (issue 50, item 3)", () => {
  const zones = ["R1", "R2", "R3", "R4", "R5", "E1", "E2", "E3", "E4", "E5", "MU1", "SP1", "SP2", "SP3", "SP4", "SP5"];
  const more = ["RE1", "RE2", "C1", "C2", "C3", "C4", "RU1", "RU2", "RU3", "RU4", "RU5", "RU6", "W1", "W2", "W3", "W4"];

  it("hold every zone the model knows, each cited, dated and with a status for every form of housing", () => {
    for (const code of [...zones, ...more]) {
      const t = landUseTable(code);
      expect(t, code).not.toBeNull();
      expect(t?.citation).toMatch(new RegExp(`^Standard Instrument LEP, Land Use Table, zone ${code} [A-Z]`));
      expect(t?.commenced).toMatch(/^20\d\d-\d\d-\d\d$/);
      for (const f of HOUSING_FORMS) expect(["permitted", "prohibited", "council_optional"]).toContain(t?.forms[f]);
    }
    expect(Object.keys(LAND_USE_TABLES).sort()).toEqual([...zones, ...more].sort());
  });

  it("say what the Standard Instrument says: no housing in E4 or E5, shop top housing in E1, E2 and MU1", () => {
    expect(landUseTable("E4")?.says).toBe("residential accommodation prohibited");
    expect(landUseTable("E5")?.says).toBe("residential accommodation prohibited");
    for (const z of ["E1", "E2", "MU1"]) expect(landUseTable(z)?.forms.shop_top_housing).toBe("permitted");
    expect(landUseTable("R4")?.forms.residential_flat_building).toBe("permitted");
    expect(landUseTable("R2")?.forms.dwelling_house).toBe("permitted");
    expect(landUseTable("R2")?.forms.dual_occupancy).toBe("council_optional");
  });

  it("name the table in the reason of every result that read it, and in each option it did not count", () => {
    let notCounted = 0;
    for (const r of results) {
      const code = r.dominantZone?.code;
      const t = code ? landUseTable(currentZone(code)) : null;
      if (t === null) continue;
      expect(
        r.reasons.some((x) => x.startsWith("Land use: ") && x.includes(`(${t.citation})`)),
        r.lotId ?? "",
      ).toBe(true);
      for (const o of r.yieldOptions) {
        const form = FORM_OF_BASIS[o.basis];
        if (form === undefined || t.forms[form] !== "council_optional" || o.rule.indexOf("council's LEP") < 0) continue;
        const reason = r.reasons.find((x) => x.includes(o.rule));
        expect(reason).toContain(`not counted (${o.clause}): `);
        expect(reason).toContain(`(${t.citation}), not counted: check the LEP`);
        notCounted++;
      }
    }
    expect(notCounted).toBeGreaterThan(3);
  });

  it("name the state policy that permits a form the table leaves to the council", () => {
    const reasonOf = (r: ReturnType<typeof scoreSite>) => r.reasons.find((x) => x.startsWith("Land use: ")) ?? "";
    expect(reasonOf(scoreSite(EXAMPLES.dualOccupancy))).toContain(
      `dual occupancies permitted with consent on land to which Chapter 6 applies (${R2_DUAL_OCCUPANCY.clause})`,
    );
    expect(reasonOf(scoreSite(EXAMPLES.r3NearStation))).toContain(`(${LMR_FLATS.clause})`);
    expect(reasonOf(scoreSite(EXAMPLES.r3Tod))).toContain(
      `residential flat buildings permitted with consent in a Transport Oriented Development Area (${TOD_FLATS.clause})`,
    );
    // Outside Chapter 6 (s 164(1)), s 166 does not lift the table, and the reason says why.
    expect(reasonOf(scoreSite(EXAMPLES.bushfireLot))).toContain(
      `${R2_DUAL_OCCUPANCY.clause} does not apply here (${LMR_EXCLUSIONS.clause}): 100% of the lot is bushfire-prone`,
    );
  });

  it("says employment land where housing is prohibited is not assessed for housing, citing the table", () => {
    const r = scoreSite(EXAMPLES.e4Industrial);
    const t = landUseTable("E4");
    expect(r.reasons).toContain(`Land use: residential accommodation prohibited (${t?.citation}).`);
    expect(r.reasons.some((x) => x.includes("not assessed for housing"))).toBe(true);
  });
});

describe("the Apartment Design Guide's figures and the storey limits, cited where used (issue 50, item 3)", () => {
  it("names Part 4C wherever storeys come from a height, and Part 3F wherever an apartment envelope is drawn", () => {
    let apartments = 0;
    for (const r of results) {
      for (const o of r.yieldOptions) {
        if (o.storeys === null) continue;
        const reason = r.reasons.find((x) => x.includes(o.rule)) ?? "";
        // Storeys decide the floor space of flats and townhouses; of terraces when they bind before the lots do; of a
        // house or a dual occupancy only when the height holds none.
        const fromStoreys =
          ["low_rise_apartments", "multi_dwelling"].includes(o.basis) ||
          (o.basis === "terraces" && o.limitedBy !== "site") ||
          o.storeys === 0;
        if (fromStoreys) expect(reason, `${r.lotId} ${o.basis}`).toContain(FLOOR_TO_FLOOR.clause);
        if (["mid_rise_apartments", "tod_apartments", "apartments", "shop_top_housing"].includes(o.basis)) {
          expect(reason).toContain(`(${BUILDING_SEPARATION.clause})`);
          apartments++;
        }
      }
    }
    expect(apartments).toBeGreaterThan(4);
  });

  it("names s 175(2) and s 176(2) where the policy's height is relied on", () => {
    const inner = scoreSite(EXAMPLES.r3NearStation).yieldOptions.find((o) => o.basis === "mid_rise_apartments");
    expect(inner?.rule).toContain(`at most 6 by ${MID_RISE_INNER_STOREYS.clause}`);
    const outer = scoreSite(EXAMPLES.r4Townhouses).yieldOptions.find((o) => o.basis === "mid_rise_apartments");
    expect(outer?.rule).toContain(`17.5 m = 5 storeys`);
    expect(outer?.rule).toContain(`at most 4 by ${MID_RISE_OUTER_STOREYS.clause}`);
    expect(outer?.storeys).toBe(4);
  });
});

describe("the collective sale rule (issue 50, item 5)", () => {
  it("is data with its citation and commencement, and the reason flagging a strata lot names it", () => {
    expect(COLLECTIVE_SALE.clause).toBe("Strata Schemes Development Act 2015 Pt 10");
    expect(COLLECTIVE_SALE.commenced).toMatch(/^20\d\d-\d\d-\d\d$/);
    let flagged = 0;
    for (const r of results) {
      const sale = r.existing.collectiveSale;
      if (sale === undefined) continue;
      expect(sale.clause).toBe(COLLECTIVE_SALE.clause);
      expect(r.reasons.some((x) => x.includes("collective sale") && x.includes(`(${COLLECTIVE_SALE.clause})`))).toBe(
        true,
      );
      flagged++;
    }
    expect(flagged).toBe(1);
    // A lot with no strata scheme names no collective sale.
    expect(results.filter((r) => r.reasons.some((x) => x.includes(COLLECTIVE_SALE.clause))).length).toBe(1);
  });

  it("counts the owners a collective sale needs as 75% of the lots, rounded up", () => {
    expect([ownersNeeded(20), ownersNeeded(24), ownersNeeded(2), ownersNeeded(5)]).toEqual([15, 18, 2, 4]);
  });
});
