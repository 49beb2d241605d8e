// The one price table: what the server charges and the web states.
import { describe, expect, it } from "vitest";
import { costOf, MAX_BATCH_ROWS, UNIT_PRICE } from "../../../src/credits/prices.ts";

describe("costOf", () => {
  it("states a cost exactly, without floating-point tails", () => {
    expect(costOf(MAX_BATCH_ROWS, UNIT_PRICE.batch_score)).toBe(5);
    expect(costOf(3, UNIT_PRICE.batch_score)).toBe(0.3);
    expect(costOf(7, UNIT_PRICE.batch_score)).toBe(0.7);
    expect(costOf(3, UNIT_PRICE.chat)).toBe(0.15);
    expect(costOf(0, UNIT_PRICE.report)).toBe(0);
  });
});
