// A chosen CSV's sites and cost, stated before it is sent: header and blank lines are not sites, and 37 sites cost 3.7.
import { describe, expect, it } from "vitest";
import { batchPlan, planQuestion } from "../../../web/src/map/batch-plan.ts";

describe("a batch's plan before it is sent", () => {
  it("counts the rows with a value after the header, quoted commas and newlines kept in their cell", () => {
    const csv =
      '\uFEFFsite,latitude,longitude\n"A, corner",-33.9,151.1\n\n"B\nsecond line",-33.8,151.2\n,,\nC,-33.7,151.0\n';
    expect(batchPlan(csv)).toEqual({ rows: 3, cost: 0.3 });
  });

  it("prices at a batch row's rate in cents, and asks in words", () => {
    const csv = ["lot_number", ...Array.from({ length: 37 }, (_, i) => `${i + 1}//DP100`)].join("\n");
    const plan = batchPlan(csv);
    expect(plan).toEqual({ rows: 37, cost: 3.7 });
    expect(planQuestion(plan)).toBe("Score 37 sites for 3.7 credits?");
    expect(planQuestion(batchPlan("lot_number\n1//DP1\n"))).toBe("Score 1 site for 0.1 credits?");
    expect(batchPlan("lot_number\n")).toEqual({ rows: 0, cost: 0 });
  });
});
