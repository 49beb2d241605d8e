// The LEP table for dual occupancies and multi dwelling housing (issue 50, item 1): each rule holds its clause, figure,
// dates and source, and the councils holding most of the world's R2 lots are in it.
import { describe, expect, it } from "vitest";
import { COUNCIL_LEPS, councilKey, councilLep, lepRule } from "../../../src/scoring/rules/lep-lot-sizes.ts";

const ISO_DATE = /^20\d\d-\d\d-\d\d$/;
const rules = COUNCIL_LEPS.flatMap((c) => c.rules.map((r) => ({ council: c.council, ...r })));

// The ten LGAs holding most of the 1,500,018-lot world's 637,992 R2 lots (docs/scoring.md section 5.6), most first.
const TOP_TEN_R2 = [
  "Northern Beaches",
  "Canterbury-Bankstown",
  "Ku-ring-gai",
  "Penrith",
  "Blacktown",
  "Ryde",
  "Parramatta",
  "Georges River",
  "Campbelltown",
  "Hornsby",
];

describe("the LEP lot size table", () => {
  it("gives every rule its zones, clause, dates and a legislation.nsw.gov.au source", () => {
    for (const r of rules) {
      expect(r.zones.length, r.clause).toBeGreaterThan(0);
      expect(r.clause, r.council).toMatch(/ LEP 20\d\d/);
      expect(r.commenced, r.clause).toMatch(ISO_DATE);
      expect(r.version, r.clause).toMatch(ISO_DATE);
      expect(r.commenced <= r.version, r.clause).toBe(true);
      expect(r.source, r.clause).toMatch(/^https:\/\/legislation\.nsw\.gov\.au\/view\/html\/inforce\/current\/epi-/);
      expect(r.note.length, r.clause).toBeGreaterThan(0);
    }
  });

  it("cites a clause number for every confirmed figure, and holds no figure it has not confirmed", () => {
    for (const r of rules) {
      const figure = r.minAreaM2 !== null || r.minWidthM !== null;
      if (r.confirmed && figure) expect(r.clause, r.council).toMatch(/ cl \d+\.\d+[A-Z]*/);
      if (!r.confirmed) expect(figure, r.clause).toBe(false);
      if (r.minAreaM2 !== null) expect(r.minAreaM2).toBeGreaterThan(0);
      if (r.conservationAreaMinAreaM2 !== undefined)
        expect(r.conservationAreaMinAreaM2).toBeGreaterThan(r.minAreaM2 ?? 0);
    }
  });

  it("holds a dual occupancy rule for Zone R2 in each of the ten councils with most R2 lots, all but Campbelltown's confirmed", () => {
    const confirmed = TOP_TEN_R2.filter((name) => {
      const council = councilLep(name);
      expect(council, name).not.toBeNull();
      const rule = council && lepRule(council, "dual_occupancy", "R2");
      expect(rule, name).not.toBeNull();
      return rule?.confirmed === true && rule.minAreaM2 !== null;
    });
    expect(TOP_TEN_R2.filter((n) => !confirmed.includes(n))).toEqual(["Campbelltown"]);
    const all = COUNCIL_LEPS.filter((c) => lepRule(c, "dual_occupancy", "R2")?.confirmed);
    expect(all.length).toBeGreaterThanOrEqual(10);
  });

  it("finds a council by the names NSW data gives it, and no other", () => {
    expect(councilLep("CITY OF RYDE")?.lep).toBe("Ryde LEP 2014");
    expect(councilLep("The Hills Shire Council")?.lep).toBe("The Hills LEP 2019");
    expect(councilLep("Ku-ring-gai Council")?.lep).toBe("Ku-ring-gai LEP 2015");
    expect(councilLep("Fairfield")).toBeNull();
    expect(new Set(COUNCIL_LEPS.map((c) => councilKey(c.council))).size).toBe(COUNCIL_LEPS.length);
  });

  it("holds one rule a council sets for a form in a zone, so the rule a lot takes is never ambiguous", () => {
    for (const c of COUNCIL_LEPS) {
      for (const form of ["dual_occupancy", "multi_dwelling_housing"] as const) {
        const zones = c.rules.filter((r) => r.form === form).flatMap((r) => r.zones);
        expect(new Set(zones).size, `${c.council} ${form}`).toBe(zones.length);
      }
    }
  });
});
