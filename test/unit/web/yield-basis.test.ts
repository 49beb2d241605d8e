// The score's yield basis in words, for the model's keys today and keys it adds later.
import { describe, expect, it } from "vitest";
import { basisLabel, yieldOptions } from "../../../web/src/map/yield-basis.ts";

describe("basisLabel", () => {
  it("says a known basis in words", () => {
    expect(basisLabel("dual_occupancy")).toBe("Dual occupancy");
    expect(basisLabel("no_fsr")).toBe("None: no FSR is mapped here");
  });

  it("says a basis it has not met as words, never as a key", () => {
    expect(basisLabel("co_living_units")).toBe("Co living units");
  });
});

describe("yieldOptions", () => {
  it("reads the options the model tested, and nothing when the answer has none", () => {
    expect(yieldOptions({ yield_basis: "subdivision" })).toEqual([]);
    expect(
      yieldOptions({
        yield_options: [
          { basis: "subdivision", permitted: true, dwellings: 2, rule: "612 m² ≥ 2 × 300 m²" },
          { basis: "terraces", permitted: false },
          "not an option",
        ],
      }),
    ).toEqual([
      { basis: "subdivision", permitted: true, dwellings: 2, rule: "612 m² ≥ 2 × 300 m²" },
      { basis: "terraces", permitted: false, dwellings: null, rule: null },
    ]);
  });
});
