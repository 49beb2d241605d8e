// The world's streets and bus stops as a v2 pack of layers published beside the lots (`greater-sydney-streets`):
// `streets`, a line per named stretch with its `name` and `suburb`, and `transport`, the bus stops (mode `bus`, each
// marked synthetic), which answers' nearest stop and the map read as they read any pack's stops.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { type ColumnarLayer, encodeColumnar } from "../../src/packs/paged/index.ts";
import { streetsInfo, WORLD_STREETS_ID } from "./meta.ts";
import type { StopFeature, StreetFeature } from "./world-map.ts";

const NONE = new Uint32Array(0);

// Each stretch one feature, each of its parts one polygon of one ring (a line's parts, as the transport pack's lines).
function streetsLayer(streets: readonly StreetFeature[]): ColumnarLayer {
  const vertices = streets.reduce((n, s) => n + s.parts.reduce((m, p) => m + p.length / 2, 0), 0);
  const parts = streets.reduce((n, s) => n + s.parts.length, 0);
  const coords = new Float64Array(2 * vertices);
  const ringOffsets = new Uint32Array(parts + 1);
  const polyOffsets = new Uint32Array(parts + 1);
  const featureOffsets = new Uint32Array(streets.length + 1);
  let v = 0;
  let p = 0;
  streets.forEach((s, i) => {
    for (const part of s.parts) {
      coords.set(part, 2 * v);
      v += part.length / 2;
      ringOffsets[++p] = v;
      polyOffsets[p] = p;
    }
    featureOffsets[i + 1] = p;
  });
  return {
    name: "streets",
    kind: "line",
    count: streets.length,
    coords,
    ringOffsets,
    polyOffsets,
    featureOffsets,
    fields: ["name", "suburb"],
    categoryField: null,
    synthetic: true,
    syntheticField: null,
    row: (i) => {
      const s = streets[i] as StreetFeature;
      return [s.name, s.suburb];
    },
  };
}

function stopsLayer(stops: readonly StopFeature[]): ColumnarLayer {
  return {
    name: "transport",
    kind: "point",
    count: stops.length,
    coords: Float64Array.from(stops.flatMap((s) => [s.lon, s.lat])),
    ringOffsets: NONE,
    polyOffsets: NONE,
    featureOffsets: NONE,
    fields: ["name", "mode", "stop_id", "synthetic"],
    categoryField: "mode",
    synthetic: true,
    syntheticField: "synthetic",
    row: (i) => {
      const s = stops[i] as StopFeature;
      return [s.name, "bus", s.stopId, true];
    },
  };
}

/** The streets pack's bytes for the world's streets and stops. */
export function streetsPackBytes(
  streets: readonly StreetFeature[],
  stops: readonly StopFeature[],
  version: string,
  seed: number,
  root: string,
): Promise<Uint8Array> {
  const { meta, info } = streetsInfo(seed, root);
  const layers = [streetsLayer(streets), ...(stops.length > 0 ? [stopsLayer(stops)] : [])];
  return encodeColumnar(layers, { id: WORLD_STREETS_ID, version, meta, info });
}

/** Writes the streets pack at `out`, beside it first and renamed into place, and says its size. */
export async function writeStreetsPack(
  streets: readonly StreetFeature[],
  stops: readonly StopFeature[],
  out: string,
  version: string,
  seed: number,
  root: string,
): Promise<number> {
  const bytes = await streetsPackBytes(streets, stops, version, seed, root);
  const tmp = `${out}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, out);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return bytes.length;
}
