// The world is a function of its seed: the same seed gives the same bytes, whichever threads built which suburb.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readHeader } from "../../../src/packs/paged/schema.ts";
import { smallPack } from "./small-world.ts";

const SUBURBS = ["Newtown", "Erskineville", "Enmore"];
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const first = await smallPack(SUBURBS, 1500, 7);

describe("the synthetic world", () => {
  it("is the same bytes for the same seed, built again in-process or on two worker threads", async () => {
    expect(readHeader(first, "first").featureCount).toBeGreaterThan(1000);
    expect(sha(await smallPack(SUBURBS, 1500, 7))).toBe(sha(first));
    expect(sha(await smallPack(SUBURBS, 1500, 7, 2))).toBe(sha(first));
  });

  it("differs for another seed", async () => {
    expect(sha(await smallPack(SUBURBS, 1500, 8))).not.toBe(sha(first));
  });
});
