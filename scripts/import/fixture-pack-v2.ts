// Writes the worker tests' second import of Hunters Hill (a re-import: a new version of nsw-hunters-hill): the
// stand-in's fixtures with the R3 land rezoned R4 and the last lot gone, imported a week after the first
// (scripts/import/fixture-pack.ts). `node scripts/import/fixture-pack-v2.ts`; test/worker/alerts/import-versions.test.ts
// publishes the first then this one and reads the alerts.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { arcgisServices } from "../../standins/arcgis/fixtures.ts";
import type { FixtureFeature } from "../../standins/arcgis/model.ts";
import { importedFixtureBase64 } from "./fixture-pack.ts";

export const FIXTURE_PACK_V2 = "test/fixtures/nsw/imported-hunters-hill-v2.pack.b64";
export const FIXTURE_V2_FETCHED_AT = "2026-12-08T00:00:00.000Z";
/** What the second import changes: the zone rezoned (from, to) and the lot that is gone. */
export const V2_REZONED = { from: "R3", to: "R4", name: "High Density Residential" };

const featuresOf = (name: string): FixtureFeature[] => {
  const layer = arcgisServices()
    .flatMap((s) => s.layers)
    .find((l) => l.name === name);
  if (!layer) throw new Error(`the stand-in has no layer ${name}`);
  return layer.features;
};

/** The lot the second import drops: the stand-in's last. */
export function droppedLotId(): string {
  return String(featuresOf("Lot").at(-1)?.attributes.lotidstring);
}

/** The second import's base64 text, built afresh. */
export async function fixturePackV2Base64(): Promise<string> {
  const zoning = featuresOf("Land Zoning").map((f) =>
    f.attributes.SYM_CODE === V2_REZONED.from
      ? { ...f, attributes: { ...f.attributes, SYM_CODE: V2_REZONED.to, LAY_CLASS: V2_REZONED.name } }
      : f,
  );
  const lots = featuresOf("Lot").slice(0, -1);
  return importedFixtureBase64({
    version: "fixture-2",
    fetchedAt: FIXTURE_V2_FETCHED_AT,
    layers: { "Land Zoning": { features: zoning }, Lot: { features: lots } },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(FIXTURE_PACK_V2, await fixturePackV2Base64());
  console.log(`wrote ${FIXTURE_PACK_V2}`);
}
