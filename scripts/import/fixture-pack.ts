// Writes the worker tests' imported pack: Hunters Hill imported from the ArcGIS stand-in (synthetic geometry) at a
// fixed time, as base64 text (workerd tests read fixtures as text). `node scripts/import/fixture-pack.ts`; the unit
// test test/unit/import/fixture-pack.test.ts fails when the file is no longer what the importer gives.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type ArcgisStandinOptions, STANDIN_SOURCES, startArcgisStandin } from "../../standins/arcgis/server.ts";
import { lgaArea } from "./area.ts";
import { importNsw } from "./import-nsw.ts";

export const FIXTURE_PACK = "test/fixtures/nsw/imported-hunters-hill.pack.b64";
export const FIXTURE_FETCHED_AT = "2026-12-01T00:00:00.000Z";

/** An import of Hunters Hill from the stand-in (serving `layers` over its own), as base64 text, built afresh. */
export async function importedFixtureBase64(opts: {
  version: string;
  fetchedAt: string;
  layers?: ArcgisStandinOptions["layers"];
}): Promise<string> {
  const standin = await startArcgisStandin(opts.layers ? { layers: opts.layers } : undefined);
  const dir = mkdtempSync(join(tmpdir(), "import-fixture-"));
  try {
    const r = await importNsw({
      area: lgaArea("Hunters Hill"),
      out: join(dir, "fixture.pack"),
      cache: null,
      urls: standin.urls,
      sources: STANDIN_SOURCES,
      synthetic: true,
      version: opts.version,
      now: () => new Date(opts.fetchedAt),
      progress: () => {},
    });
    return `${readFileSync(r.out).toString("base64")}\n`;
  } finally {
    await standin.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fixture's base64 text, built afresh. */
export const fixturePackBase64 = (): Promise<string> =>
  importedFixtureBase64({ version: "fixture", fetchedAt: FIXTURE_FETCHED_AT });

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(FIXTURE_PACK, await fixturePackBase64());
  console.log(`wrote ${FIXTURE_PACK}`);
}
