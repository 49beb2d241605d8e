// Strata plan numbers are unique across the world, as the registry's are (scripts/world/strata-plans.ts).
import { describe, expect, it } from "vitest";
import { UniqueStrataPlans } from "../../../scripts/world/strata-plans.ts";
import { packLots, smallPack } from "./small-world.ts";

describe("UniqueStrataPlans", () => {
  it("keeps a number drawn once, and moves a repeat to the next free number above it", () => {
    const plans = new UniqueStrataPlans();
    expect(["SP100", "SP101", "SP100", "SP100", "SP103"].map((p) => plans.take(p))).toEqual([
      "SP100",
      "SP101",
      "SP102",
      "SP103",
      "SP104",
    ]);
    expect(plans.moved).toBe(3);
  });

  it("leaves lots without a plan, and text not of the registry's form, as they are", () => {
    const plans = new UniqueStrataPlans();
    expect([null, undefined, "", "strata"].map((p) => plans.take(p))).toEqual([null, undefined, "", "strata"]);
  });
});

describe("the world's strata plans", () => {
  it("name each strata building with a number no other lot of the world has", async () => {
    // Dense centres whose flats share the recent registrations' range: many draws, where repeats would be.
    const lots = await packLots(
      await smallPack(["Sydney", "Parramatta", "Chatswood", "Burwood", "Hurstville"], 20_000),
    );
    const plans = lots.map((l) => l.properties.strata_plan).filter((p): p is string => typeof p === "string");
    expect(plans.length).toBeGreaterThan(500);
    expect(new Set(plans).size).toBe(plans.length);
  });
});
