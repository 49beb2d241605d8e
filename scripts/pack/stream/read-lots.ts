// Phase 1 of a streamed build: the cadastre file read feature by feature into spilled lot records, with the boxes the next phases need.
import { statSync } from "node:fs";
import { basename } from "node:path";
import type { BBox } from "../../../src/geo/bbox.ts";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import type { AreaGeometry, Columns } from "../../../src/geo/types.ts";
import { stateCode } from "../../../src/geocode/gazetteer.ts";
import { layerSpec } from "../../../src/packs/upload/layer-specs.ts";
import type { Props } from "../../../src/packs/types.ts";
import type { InputFeature } from "../layers.ts";
import { GeoJsonInputError } from "./geojson-split.ts";
import { type LotFrame, LotFrameEncoder } from "./lot-frame.ts";
import type { Progress } from "./progress.ts";
import { readFeatures } from "./read-features.ts";
import type { Spill } from "./runs.ts";

export type ReadLots = {
  lots: number;
  // Features of another geometry type than Polygon or MultiPolygon, skipped as `build` skips them.
  skipped: number;
  features: number;
  bytes: number;
  // The lots' box centres' bbox (the Hilbert curve's frame) and their vertices' (the pack's extent).
  centres: BBox;
  vertices: BBox;
};

export const growBox = (b: BBox, x: number, y: number): void => {
  if (x < b[0]) b[0] = x;
  if (y < b[1]) b[1] = y;
  if (x > b[2]) b[2] = x;
  if (y > b[3]) b[3] = y;
};

function validCoords(c: unknown, depth: number): boolean {
  if (!Array.isArray(c)) return false;
  if (depth === 0) return c.length >= 2 && Number.isFinite(c[0]) && Number.isFinite(c[1]);
  return c.every((x) => validCoords(x, depth - 1));
}

// The box centre the in-memory encodePack sorts by: the bbox of each polygon's outer ring.
function boxCentre(cols: Columns): [number, number] {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (let p = 0; p < cols.polyOffsets.length - 1; p++) {
    const r = cols.polyOffsets[p] as number;
    for (let v = cols.ringOffsets[r] as number; v < (cols.ringOffsets[r + 1] as number); v++) {
      growBox(b, cols.coords[2 * v] as number, cols.coords[2 * v + 1] as number);
    }
  }
  return [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
}

/** A cadastre feature as a lot record, or null when its geometry is not an area. */
function lotOf(name: string, index: number, f: InputFeature, map: (p: Props) => unknown[]): LotFrame | null {
  const g = f.geometry;
  if (g === null || g === undefined) throw new GeoJsonInputError(`${name}: features[${index}] has no geometry`, index);
  if (g.type !== "Polygon" && g.type !== "MultiPolygon") return null;
  if (!validCoords(g.coordinates, g.type === "Polygon" ? 2 : 3)) {
    throw new GeoJsonInputError(
      `${name}: features[${index}] has a ${g.type} whose coordinates are not [longitude, latitude] number pairs`,
      index,
    );
  }
  let cols: Columns;
  try {
    // The v1 builder's own conversion: rings stored open, degenerate rings dropped.
    cols = columnsFromGeometry(g as AreaGeometry);
  } catch (e) {
    throw new GeoJsonInputError(`${name}: features[${index}]: ${e instanceof Error ? e.message : String(e)}`, index);
  }
  const [cx, cy] = boxCentre(cols);
  return { feature: index, cx, cy, cols, row: JSON.stringify(map(f.properties ?? {})) };
}

/** Reads every lot of `file` into `spill` (keyed later, once the centres' bbox is known). */
export function readLots(file: string, spill: Spill, progress: Progress, state?: string): ReadLots {
  const name = basename(file);
  const spec = layerSpec("parcels");
  const options = { stateCode, defaultState: state };
  const map = (p: Props) => spec.map(p, options);
  const frames = new LotFrameEncoder();
  const centres: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const vertices: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  let lots = 0;
  let skipped = 0;
  progress.start("read", "bytes", statSync(file).size);
  const read = readFeatures(
    file,
    (index, f) => {
      const lot = lotOf(name, index, f, map);
      if (lot === null) {
        skipped++;
        return;
      }
      growBox(centres, lot.cx, lot.cy);
      const c = lot.cols.coords;
      for (let i = 0; i < c.length; i += 2) growBox(vertices, c[i] as number, c[i + 1] as number);
      spill.add(0, index, frames.encode(lot));
      lots++;
    },
    { onBytes: (bytes) => progress.update(lots, bytes) },
  );
  progress.finish(lots, read.bytes);
  if (lots === 0) {
    throw new GeoJsonInputError(`${name}: no Polygon or MultiPolygon lots among its ${read.features} features`);
  }
  return { lots, skipped, features: read.features, bytes: read.bytes, centres, vertices };
}
