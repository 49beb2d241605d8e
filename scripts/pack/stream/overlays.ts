// The overlay layers a v2 build computes each lot's facts from, held in memory as one pack (they are small beside the cadastre).
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import type { BBox } from "../../../src/geo/bbox.ts";
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import type { LayerInput, Pack, PackMeta } from "../../../src/packs/types.ts";
import { gtfsStations, isGtfsStops, stationFeatures } from "../gtfs.ts";
import { buildLayer, type InputFeature, LAYER_NAMES, type LayerName } from "../layers.ts";
import { isTopology, topologyFeatures } from "../topojson.ts";
import { readFeatures } from "./read-features.ts";

export type OverlaySpec = {
  id: string;
  version: string;
  meta: PackMeta;
  // One file per overlay layer, as downloaded; a parcels entry is ignored (the cadastre is streamed).
  files: Partial<Record<LayerName, string>>;
  synthetic: ReadonlySet<string>;
  state?: string;
  topoObject?: string;
  gtfsMode?: string;
};

function head(file: string, bytes: number): string {
  const fd = openSync(file, "r");
  try {
    const b = Buffer.alloc(bytes);
    return b.toString("utf8", 0, readSync(fd, b, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

// GeoJSON is streamed (no string-length limit); TopoJSON and GTFS are small and read whole, as `build` reads them.
function overlayFeatures(file: string, spec: OverlaySpec): InputFeature[] {
  const start = head(file, 4096);
  if (isGtfsStops(start)) return stationFeatures(gtfsStations(readFileSync(file, "utf8")), spec.gtfsMode ?? "train");
  if (/"type"\s*:\s*"Topology"/.test(start)) {
    const topo: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!isTopology(topo)) throw new Error(`${file} is not a TopoJSON topology`);
    return topologyFeatures(topo, spec.topoObject ?? Object.keys(topo.objects)[0] ?? "");
  }
  const out: InputFeature[] = [];
  readFeatures(file, (_i, f) => {
    out.push(f);
  });
  return out;
}

/**
 * The overlay layers as one in-memory pack with the build's id. It also holds an empty parcels layer, so a
 * lot reads as synthetic exactly when `--synthetic parcels` says so, as it would in a pack built whole.
 */
export function loadOverlayPack(spec: OverlaySpec): { pack: Pack; layers: string[]; warnings: string[] } {
  const layers: LayerInput[] = [];
  const warnings: string[] = [];
  for (const name of LAYER_NAMES) {
    if (name === "parcels") {
      layers.push(buildLayer(name, [], spec.synthetic.has(name)).layer);
      continue;
    }
    const file = spec.files[name];
    if (!file) continue;
    const { layer, skipped } = buildLayer(name, overlayFeatures(file, spec), spec.synthetic.has(name), {
      defaultState: spec.state,
    });
    if (skipped) warnings.push(`${name}: skipped ${skipped} features of the wrong geometry type`);
    layers.push(layer);
  }
  const pack = memoryPack({ id: spec.id, version: spec.version, meta: spec.meta, layers, order: "index" });
  return { pack, layers: layers.map((l) => l.name).filter((n) => n !== "parcels"), warnings };
}

/** The pack as if it also held the cadastre: its bbox grown to the lots' (the control kernels look at pack boxes). */
export function withCadastreBox(pack: Pack, cadastre: BBox): Pack {
  const b: BBox = [...cadastre];
  for (const l of pack.layers.values()) {
    if (l.count === 0) continue;
    b[0] = Math.min(b[0], l.bbox[0]);
    b[1] = Math.min(b[1], l.bbox[1]);
    b[2] = Math.max(b[2], l.bbox[2]);
    b[3] = Math.max(b[3], l.bbox[3]);
  }
  return { ...pack, bbox: b };
}
