// The report's "Dual occupancy" key figure is the option the yield tested, by the clause that applied there (issue 50:
// it read the Housing SEPP's s 168(2) test on every lot, in or out of a low and mid rise area).
import { describe, expect, it } from "vitest";
import { dualOccupancyText } from "../../../src/report/pdf/site.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { EXAMPLES } from "../scoring/worked-examples.ts";

describe("the report's dual occupancy row", () => {
  it("names an LEP clause outside a low and mid rise area and s 168 inside one, as the yield tested", () => {
    const rows = Object.values(EXAMPLES).map((f) => {
      const r = scoreSite(f);
      return [r.policy.area, dualOccupancyText(r)] as const;
    });
    const clauses = rows.filter(([, text]) => !text.startsWith("not tested"));
    expect(clauses.some(([area, clause]) => area === "none" && !String(clause).includes("s 168"))).toBe(true);
    expect(clauses.some(([area, clause]) => area !== "none" && String(clause).includes("s 168"))).toBe(true);
  });
});
