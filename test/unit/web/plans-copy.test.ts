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
});
