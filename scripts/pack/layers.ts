// Turns GeoJSON-like features into pack layers, mapping official Australian field names to pack fields.
import { columnsFromGeometries } from "../../src/geo/columns.ts";
import { stateCode } from "../../src/geocode/gazetteer.ts";
import type { AreaGeometry } from "../../src/geo/types.ts";
import type { LayerInput } from "../../src/packs/types.ts";
import { type BuildOptions, type LayerName, layerSpec } from "../../src/packs/upload/layer-specs.ts";

export { LAYER_NAMES, layerSpec } from "../../src/packs/upload/layer-specs.ts";
export type { BuildOptions, LayerName } from "../../src/packs/upload/layer-specs.ts";

export type InputFeature = {
  properties: Record<string, unknown> | null;
  geometry: { type: string; coordinates?: unknown } | null;
};

// Builds one layer; features whose geometry does not fit the layer kind are counted and skipped.
export function buildLayer(
  name: LayerName,
  features: readonly InputFeature[],
  synthetic: boolean,
  options: BuildOptions = {},
): { layer: LayerInput; skipped: number } {
  const spec = layerSpec(name);
  const rows: unknown[][] = [];
  let skipped = 0;
  if (spec.kind === "point") {
    const xy: number[] = [];
    for (const f of features) {
      const c = f.geometry?.type === "Point" ? (f.geometry.coordinates as number[]) : null;
      if (!c || typeof c[0] !== "number" || typeof c[1] !== "number") {
        skipped++;
        continue;
      }
      xy.push(c[0], c[1]);
      rows.push(spec.map(f.properties ?? {}, { stateCode, ...options }));
    }
    return {
      layer: {
        name,
        synthetic,
        categoryField: spec.categoryField,
        syntheticField: spec.syntheticField,
        fields: spec.fields,
        geometry: { kind: "point", coords: Float64Array.from(xy) },
        row: (i) => rows[i] as unknown[],
      },
      skipped,
    };
  }
  const geoms: AreaGeometry[] = [];
  for (const f of features) {
    const t = f.geometry?.type;
    if (t !== "Polygon" && t !== "MultiPolygon") {
      skipped++;
      continue;
    }
    geoms.push(f.geometry as AreaGeometry);
    rows.push(spec.map(f.properties ?? {}, { stateCode, ...options }));
  }
  const cols = columnsFromGeometries(geoms);
  return {
    layer: {
      name,
      synthetic,
      categoryField: spec.categoryField,
      fields: spec.fields,
      geometry: { kind: "polygon", ...cols },
      row: (i) => rows[i] as unknown[],
    },
    skipped,
  };
}
