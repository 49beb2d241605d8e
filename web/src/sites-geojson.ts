// Scored sites as GeoJSON for GIS: pure (no DOM), so Node's unit tests read it too.
import { exportColumns, RESULT_COLUMNS, scoredValues } from "./csv.ts";
import type { SiteRow } from "./site-row.ts";

// The CSV's result columns, the reasons a list here (no error text: an error row is no feature).
const RESULT = [...RESULT_COLUMNS.slice(0, -1), "reasons"];

/** The scored sites as features: the file's line and uploaded columns kept, then what scoring found (named as in the CSV). */
export function sitesGeoJson(rows: readonly SiteRow[]): GeoJSON.FeatureCollection {
  const { inputs, results } = exportColumns(rows, RESULT);
  return {
    type: "FeatureCollection",
    features: rows.flatMap((r) => {
      if (r.kind !== "result") return [];
      const found = scoredValues(r);
      const properties: Record<string, unknown> = { line: r.line };
      for (const k of inputs) properties[k] = r.input[k] ?? null;
      results.forEach((name, i) => {
        properties[name] = found[i];
      });
      return [{ type: "Feature" as const, geometry: r.parcel.geojson.geometry, properties }];
    }),
  };
}
