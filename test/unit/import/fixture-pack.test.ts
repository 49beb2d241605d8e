// The worker tests' imported pack is what the importer gives today (regenerate: node scripts/import/fixture-pack.ts).
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { FIXTURE_PACK, fixturePackBase64 } from "../../../scripts/import/fixture-pack.ts";

it("the committed imported pack is the importer's answer from the stand-in, byte for byte", async () => {
  const fresh = await fixturePackBase64();
  expect(
    fresh === readFileSync(FIXTURE_PACK, "utf8"),
    `${FIXTURE_PACK} is stale: run node scripts/import/fixture-pack.ts`,
  ).toBe(true);
});
