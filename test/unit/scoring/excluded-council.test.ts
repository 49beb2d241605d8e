// Housing SEPP 2021 s 164(1)(e): Chapter 6 does not apply in four council areas, whatever their distance to a station.
import { describe, expect, it } from "vitest";
import { policyFor, policyReason } from "../../../src/scoring/policy.ts";

// Seven Hills is listed in Schedule 11; a lot 300 m from it is placed by the straight line (no streets known).
const near = { zone: "R2", station: { name: "Seven Hills Station", mode: "train", distanceM: 300 } };
const clear = { flood: 0, bushfire: 0, heritageItem: false };

describe("a lot in a council area excluded from the low and mid rise housing policy", () => {
  it("is in no low and mid rise area, and its reason names the council and s 164(1)", () => {
    const p = policyFor({ ...near, ...clear, lga: "Hawkesbury" });
    expect(p.area).toBe("none");
    expect(p.excludedBy).toBe("the Hawkesbury council area is outside Chapter 6");
    expect(policyReason(p)).toBe(
      "Within 800 m of a Schedule 11 station or town centre, 300 m in a straight line from Seven Hills Station, walking not measured (no streets known), but outside the low and mid rise housing policy: the Hawkesbury council area is outside Chapter 6 (Housing SEPP 2021 s 164(1)).",
    );
  });

  it("is matched whatever the case of the council's name", () => {
    expect(policyFor({ ...near, ...clear, lga: "  blue mountains " }).excludedBy).toContain("Blue Mountains");
  });

  it("leaves the same lot in any other council in the inner area, its reason listing what the data cannot check", () => {
    const p = policyFor({ ...near, ...clear, lga: "Penrith" });
    expect(p.area).toBe("lmr_inner");
    expect(policyReason(p)).toContain("not checked: coastal hazard areas");
    expect(policyReason(p)).toContain("(Housing SEPP 2021 s 164(1)(b), (f), (h), (i), (k)-(m))");
    // Facts that carry no council (packs built before it reached the score) are placed as before.
    expect(policyFor({ ...near, ...clear }).area).toBe("lmr_inner");
  });
});
