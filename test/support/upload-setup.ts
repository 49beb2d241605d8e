// Builds the upload fixtures once per run (Node reads packs/sources; workerd cannot) and hands them to the worker tests.
import type { TestProject } from "vitest/node";
import {
  MGA56_PRJ,
  geoJsonText,
  gridLots,
  realSuburbs,
  reproject,
  shapefileZip,
} from "../../scripts/pack/upload-fixtures.ts";

export default function setup(project: TestProject): void {
  const suburbs = realSuburbs(40);
  const mga = reproject(suburbs);
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  project.provide("uploadFixtures", {
    wgs84: geoJsonText(suburbs),
    geojsonMga56: geoJsonText(mga, 7856),
    shapefileMga56: b64(shapefileZip(mga, MGA56_PRJ, "suburbs")),
    shapefileNoPrj: b64(shapefileZip(mga, null, "suburbs")),
    lots: geoJsonText(gridLots(50)),
  });
}
