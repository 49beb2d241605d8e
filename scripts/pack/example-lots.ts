// packs/examples' zipped Shapefile of lots in GDA2020 / MGA zone 56 (with .prj), from the NSW cadastre fixture: a file to try on the Data page.
import { readFileSync, writeFileSync } from "node:fs";
import { type Feature, MGA56_PRJ, reproject, shapefileZip } from "./shapefile-write.ts";

export const EXAMPLE_LOTS_SOURCE = "test/fixtures/nsw/cadastre.geojson";
export const EXAMPLE_LOTS_ZIP = "packs/examples/parramatta-lots-mga56.zip";

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** The cadastre's lots as a Shapefile would carry them: dBASE names are 10 characters, so `lotidstring` becomes `lot_id`. */
export function exampleLots(source = EXAMPLE_LOTS_SOURCE): Feature[] {
  const fc = JSON.parse(readFileSync(source, "utf8")) as { features: Feature[] };
  return fc.features.map((f) => {
    const p = f.properties;
    const lotId = text(p.lotidstring) || `${text(p.lotnumber)}/${text(p.sectionnumber)}/${text(p.planlabel)}`;
    return {
      type: "Feature",
      properties: { lot_id: lotId, cadid: text(p.cadid), lotnumber: text(p.lotnumber), planlabel: text(p.planlabel) },
      geometry: f.geometry,
    };
  });
}

/** Writes the zip (the same bytes every run) and says what it wrote. */
export function writeExampleLots(out = EXAMPLE_LOTS_ZIP): string {
  const lots = exampleLots();
  const zip = shapefileZip(reproject(lots), MGA56_PRJ, "parramatta-lots");
  writeFileSync(out, zip);
  return `wrote ${out} (${zip.byteLength} bytes, ${lots.length} lots in GDA2020 / MGA zone 56)`;
}
