import { describe, expect, it } from "vitest";
import { normaliseLotId } from "../../../src/packs/lot-id.ts";

describe("normaliseLotId", () => {
  it.each([
    ["12//DP34567", "12//DP34567"],
    ["12/DP34567", "12//DP34567"],
    ["Lot 12 DP 34567", "12//DP34567"],
    ["lot 12 dp34567", "12//DP34567"],
    ["LOT12 DP34567", "12//DP34567"],
    ["  Lot 12  DP  34567 ", "12//DP34567"],
    ["Lot 12, DP 34567", "12//DP34567"],
    ["Lot 12 in Deposited Plan 34567".replace(" in", ""), "12//DP34567"],
    ["12/SP1234", "12//SP1234"],
    ["Lot 3 SP 1234", "3//SP1234"],
    ["Lot 12 Strata Plan 1234", "12//SP1234"],
    ["1//DP598704", "1//DP598704"],
    ["5/3/DP758123", "5/3/DP758123"],
    ["Lot 5 Sec 3 DP 758123", "5/3/DP758123"],
    ["Lot 5 Section 3 DP758123", "5/3/DP758123"],
    ["Lot A DP 1234", "A//DP1234"],
    ["CP/SP1234", "CP//SP1234"],
    ["012/DP034567", "12//DP34567"],
  ])("%s -> %s", (input, canonical) => {
    expect(normaliseLotId(input)).toBe(canonical);
  });

  it.each(["", "DP34567", "hello world", "12", "Lot 12", "151.2,-33.8"])("%j is not a lot id", (input) => {
    expect(normaliseLotId(input)).toBeNull();
  });
});
