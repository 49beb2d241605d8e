// The shipped by-suburb prices are what the stated gradient gives on the world's suburbs and stations, nothing else.
import { describe, expect, it } from "vitest";
import { loadInputs } from "../../../scripts/world/inputs.ts";
import { gradientPrices } from "../../../src/value/defaults/price-gradient.ts";
import { SUBURB_PRICES } from "../../../src/value/defaults/suburb-prices.ts";
import { suburbPrices } from "../../../src/value/defaults/suburb-prices-from.ts";

describe("default sale prices by suburb", () => {
  it("are the gradient over every suburb's label point (node scripts/value/default-prices.ts rewrites them)", () => {
    const { suburbs, stations } = loadInputs();
    expect(SUBURB_PRICES).toEqual(suburbPrices(suburbs, stations));
    expect(Object.keys(SUBURB_PRICES).length).toBeGreaterThan(600);
  });

  it("fall away from the CBD, rise near a station and near the coast", () => {
    const far: [number, number] = [150.7, -33.75];
    expect(gradientPrices([151.2093, -33.8688], []).apartment).toBeGreaterThan(gradientPrices(far, []).apartment);
    expect(gradientPrices(far, [[150.7, -33.75]]).apartment).toBeGreaterThan(gradientPrices(far, []).apartment);
    // Bondi Beach against a point as far from the GPO inland.
    expect(gradientPrices([151.274, -33.891], []).apartment).toBeGreaterThan(
      gradientPrices([151.141, -33.846], []).apartment,
    );
  });
});
