// What the plans page promises is what the service does: every plan may upload private packs, up to the limit.
import { describe, expect, it } from "vitest";
import { TIERS } from "../../../src/billing/tiers.ts";
import { MAX_PRIVATE_PACKS } from "../../../src/packs/upload/uploads.ts";

describe("the plans' features", () => {
  it("list private data packs on every plan, with the upload limit the service enforces", () => {
    for (const t of TIERS)
      expect(
        t.features.filter((f) => /private data packs/i.test(f)),
        t.name,
      ).toEqual([`Private data packs, up to ${MAX_PRIVATE_PACKS}`]);
  });

  it("promise on every plan what any plan can do: no plan gates a feature, so only the credits differ", () => {
    // A Free team made a PDF report while the table listed "PDF reports" under Starter only.
    const [first, ...rest] = TIERS.map((t) => t.features.slice(1));
    for (const other of rest) expect(other).toEqual(first);
    expect(first?.join(" ")).toMatch(/PDF reports/);
    for (const t of TIERS) expect(t.features[0]).toMatch(new RegExp(`^${t.credits.toLocaleString("en-AU")} credits`));
  });
});
