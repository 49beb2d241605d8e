// What a batch stream delivered: rows taken in order, and which results this request's job pays for.
import { describe, expect, it } from "vitest";
import { BatchDelivery } from "../../../src/batch/delivery.ts";

describe("a batch's delivery", () => {
  it("owes only the results taken beyond those earlier requests paid for; error rows are sent but never owed", () => {
    const d = new BatchDelivery(2);
    d.took("result");
    d.took("error");
    d.took("result");
    expect(d.owed).toBe(0);
    expect(d.nextResultCharged).toBe(true);
    d.took("result");
    d.took("error");
    expect({ scored: d.scored, failed: d.failed, sent: d.sent, owed: d.owed }).toEqual({
      scored: 3,
      failed: 2,
      sent: 5,
      owed: 1,
    });
  });

  it("numbers the file's results among the job's charged units, the free ones not at all", () => {
    const d = new BatchDelivery(2);
    expect([0, 1, 2, 3].map((n) => d.chargeSeq(n))).toEqual([null, null, 1, 2]);
    // The job counts its units done in order: a stored result is shown once its number is within units_done.
    d.took("result");
    d.took("result");
    d.took("result");
    expect(d.chargeSeq(d.scored - 1)).toBe(d.owed);
  });

  it("with nothing paid before, charges from the first result", () => {
    const d = new BatchDelivery(0);
    expect(d.nextResultCharged).toBe(true);
    expect(d.chargeSeq(0)).toBe(1);
    d.took("result");
    expect(d.owed).toBe(1);
  });
});
