// The world is a function of its seed: the same seed gives the same bytes, whichever threads built which suburb.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readHeader } from "../../../src/packs/paged/schema.ts";
import { smallPacks } from "./small-world.ts";

const SUBURBS = ["Newtown", "Erskineville", "Enmore"];
const sha = (b: { lots: Uint8Array; streets: Uint8Array }) =>
  [b.lots, b.streets].map((x) => createHash("sha256").update(x).digest("hex")).join(" ");
const first = await smallPacks(SUBURBS, 1500, 7);

describe("the synthetic world", () => {
  it("is the same bytes (its lots and its streets) for the same seed, built again in-process or on two worker threads", async () => {
    expect(readHeader(first.lots, "first").featureCount).toBeGreaterThan(1000);
    expect(readHeader(first.streets, "streets").featureCount).toBeGreaterThan(10);
    expect(sha(await smallPacks(SUBURBS, 1500, 7))).toBe(sha(first));
    expect(sha(await smallPacks(SUBURBS, 1500, 7, 2))).toBe(sha(first));
  });

  it("differs for another seed", async () => {
    expect(sha(await smallPacks(SUBURBS, 1500, 8))).not.toBe(sha(first));
  });
});
