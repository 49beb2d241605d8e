// The alerts test's second import is what the importer gives today (regenerate: node scripts/import/fixture-pack-v2.ts).
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { FIXTURE_PACK_V2, fixturePackV2Base64 } from "../../../scripts/import/fixture-pack-v2.ts";

it("the committed second import is the importer's answer from the changed stand-in, byte for byte", async () => {
  const fresh = await fixturePackV2Base64();
  expect(
    fresh === readFileSync(FIXTURE_PACK_V2, "utf8"),
    `${FIXTURE_PACK_V2} is stale: run node scripts/import/fixture-pack-v2.ts`,
  ).toBe(true);
});
