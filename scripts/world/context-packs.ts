// In-memory packs of the generated overlays, so each lot's facts come from the same overlay kernels that
// assess an uploaded pack: one pack per suburb (its lots and overlays), one of the stations and suburb
// boundaries, and one of every centre's zoning in the world (for the distance to the nearest centre).
import type { Columns } from "../../src/geo/types.ts";
import { memoryPack } from "../../src/packs/memory-pack.ts";
import type { LayerInput, Pack, PackMeta } from "../../src/packs/types.ts";
import { UNITS_PER_DEGREE } from "../../src/packs/paged/index.ts";
import { buildLayer } from "../pack/layers.ts";
import type { WorldContext } from "./context.ts";
import { EXISTING_FIELDS } from "./existing.ts";
import type { Overlays, Piece } from "./features.ts";
import type { Station, Suburb } from "./inputs.ts";
import { at, type Frame } from "./lattice.ts";
import type { Lot } from "./plan.ts";
import type { StopFeature } from "./world-map.ts";

const META: PackMeta = { title: "synthetic world (build time)", attribution: "", licence: "" };

/** Quads as integer corners (x0,y0, x1,y1, x2,y2, x3,y3 per quad, 1e-7 degree), counter-clockwise. */
export function quadsOf(
  frame: Frame,
  rects: readonly { u0: number; u1: number; v0: number; v1: number }[],
): Int32Array {
  const q = new Int32Array(rects.length * 8);
  rects.forEach((r, i) => {
    q.set(
      [...at(frame, r.u0, r.v0), ...at(frame, r.u1, r.v0), ...at(frame, r.u1, r.v1), ...at(frame, r.u0, r.v1)],
      8 * i,
    );
  });
  return q;
}

/** Rings as integer vertices (x, y, ... per ring), ring i from starts[i] to starts[i + 1] (entries of coords). */
export type Rings = { coords: Int32Array; starts: Uint32Array };

/** Each lot's ring: its outline where open land was joined over streets (open-land.ts), else its quad. */
export function lotRings(frame: Frame, lots: readonly Lot[]): Rings {
  const starts = new Uint32Array(lots.length + 1);
  lots.forEach((l, i) => {
    starts[i + 1] = (starts[i] as number) + (l.outline ? 2 * l.outline.length : 8);
  });
  const coords = new Int32Array(starts[lots.length] as number);
  lots.forEach((l, i) => {
    if (!l.outline) coords.set(quadsOf(frame, [l]), starts[i] as number);
    else
      l.outline.forEach(([u, v], k) => {
        coords.set(at(frame, u, v), (starts[i] as number) + 2 * k);
      });
  });
  return { coords, starts };
}

/** Lots as a layer of one single-ring polygon each, with their rows. */
export function ringLayer(name: string, fields: string[], r: Rings, rows: unknown[][]): LayerInput {
  const n = rows.length;
  const coords = new Float64Array(r.coords.length);
  for (let i = 0; i < r.coords.length; i++) coords[i] = (r.coords[i] as number) / UNITS_PER_DEGREE;
  const ringOffsets = Uint32Array.from(r.starts, (s) => s / 2);
  const ids = Uint32Array.from({ length: n + 1 }, (_, i) => i);
  return {
    name,
    synthetic: true,
    fields,
    geometry: { kind: "polygon", coords, ringOffsets, polyOffsets: ids, featureOffsets: ids },
    row: (i) => rows[i] as unknown[],
  };
}

/** Features made of quads: feature k is quads starts[k] to starts[k+1] (one polygon each), with its row. */
export type QuadFeatures = { quads: Int32Array; starts: Uint32Array; rows: unknown[][] };

/** Pieces as features, those sharing a group joined into one (in order of first appearance). */
export function groupedPieces(frame: Frame, pieces: readonly Piece[]): QuadFeatures {
  const order: string[] = [];
  const byGroup = new Map<string, Piece[]>();
  pieces.forEach((p, i) => {
    const g = p.group ?? `#${i}`;
    const list = byGroup.get(g);
    if (list) list.push(p);
    else {
      byGroup.set(g, [p]);
      order.push(g);
    }
  });
  const sorted: Piece[] = [];
  const starts = new Uint32Array(order.length + 1);
  const rows: unknown[][] = [];
  order.forEach((g, k) => {
    const list = byGroup.get(g) as Piece[];
    sorted.push(...list);
    starts[k + 1] = sorted.length;
    rows.push((list[0] as Piece).props);
  });
  return { quads: quadsOf(frame, sorted), starts, rows };
}

/** Integer quads with their rows and groups as features, a group's quads joined (order of first appearance). */
export function groupQuads(items: readonly { quad: Int32Array; props: unknown[]; group: string }[]): QuadFeatures {
  const byGroup = new Map<string, { quad: Int32Array; props: unknown[] }[]>();
  for (const it of items) {
    const list = byGroup.get(it.group);
    if (list) list.push(it);
    else byGroup.set(it.group, [it]);
  }
  const quads = new Int32Array(items.length * 8);
  const starts = new Uint32Array(byGroup.size + 1);
  const rows: unknown[][] = [];
  let q = 0;
  let k = 0;
  for (const list of byGroup.values()) {
    for (const it of list) quads.set(it.quad, 8 * q++);
    starts[++k] = q;
    rows.push((list[0] as { props: unknown[] }).props);
  }
  return { quads, starts, rows };
}

/** Quad features as pack columns, vertices in degrees (the integers over 1e7). */
export function quadColumns(f: QuadFeatures): Columns {
  const n = f.quads.length / 8;
  const coords = new Float64Array(f.quads.length);
  for (let i = 0; i < f.quads.length; i++) coords[i] = (f.quads[i] as number) / UNITS_PER_DEGREE;
  const ringOffsets = new Uint32Array(n + 1);
  const polyOffsets = new Uint32Array(n + 1);
  for (let i = 0; i <= n; i++) {
    ringOffsets[i] = 4 * i;
    polyOffsets[i] = i;
  }
  return { coords, ringOffsets, polyOffsets, featureOffsets: f.starts };
}

export function quadLayer(name: string, fields: string[], f: QuadFeatures, categoryField?: string): LayerInput {
  return {
    name,
    synthetic: true,
    ...(categoryField ? { categoryField } : {}),
    fields,
    geometry: { kind: "polygon", ...quadColumns(f) },
    row: (i) => f.rows[i] as unknown[],
  };
}

export const LAYER_FIELDS = {
  zoning: ["zone", "zone_name", "epi_name", "lga"],
  fsr: ["fsr", "label", "epi_name"],
  height: ["height_m", "label", "clause", "epi_name"],
  lot_size: ["min_lot_m2", "label", "epi_name"],
  flood: ["category", "name"],
  bushfire: ["category"],
  heritage: ["name", "significance", "item_id", "class", "epi_name"],
} as const;

const CATEGORY: Record<string, string> = {
  zoning: "zone",
  fsr: "fsr",
  height: "height_m",
  lot_size: "min_lot_m2",
  flood: "category",
  bushfire: "category",
  heritage: "significance",
};

/** The overlay layers as LayerInputs from integer quads and their rows (for one suburb or a whole test world). */
export function overlayLayers(parts: Record<keyof typeof LAYER_FIELDS, QuadFeatures>): LayerInput[] {
  return (Object.keys(LAYER_FIELDS) as (keyof typeof LAYER_FIELDS)[]).map((name) =>
    quadLayer(name, [...LAYER_FIELDS[name]], parts[name], CATEGORY[name]),
  );
}

// A world lot's fields: its id and address, its frontage on the street (null: none meets it) and what stands on it.
export const PARCEL_FIELDS = ["lot_id", "address", "frontage_m", ...EXISTING_FIELDS];

/** A suburb's lots (`parcels`, in plan order, each row PARCEL_FIELDS) and its overlays. */
export function suburbPack(frame: Frame, lots: readonly Lot[], rows: unknown[][], o: Overlays): Pack {
  const layers: LayerInput[] = [
    ringLayer("parcels", PARCEL_FIELDS, lotRings(frame, lots), rows),
    ...overlayLayers({
      zoning: groupedPieces(frame, [...o.zoning, ...o.centres]),
      fsr: groupedPieces(frame, o.fsr),
      height: groupedPieces(frame, o.height),
      lot_size: groupedPieces(frame, o.lotSize),
      flood: groupedPieces(frame, o.flood),
      bushfire: groupedPieces(frame, o.bushfire),
      heritage: groupedPieces(frame, o.heritage),
    }),
  ];
  return memoryPack({ id: "suburb", version: "1", meta: META, layers, order: "input" });
}

/** Every centre's zoning (E1, E2, MU1) across the world: the "distance to the nearest centre" reaches past suburbs. */
export function centresPack(c: QuadFeatures): Pack {
  const layer = quadLayer("zoning", [...LAYER_FIELDS.zoning], c, "zone");
  return memoryPack({ id: "centres", version: "1", meta: META, layers: [layer], order: "index" });
}

/** The world's stations (real, so not marked synthetic) and its bus stops (made up, each marked synthetic). */
export function transportLayer(stations: readonly Station[], stops: readonly StopFeature[] = []): LayerInput {
  const coords = Float64Array.from([...stations, ...stops].flatMap((s) => [s.lon, s.lat]));
  return {
    name: "transport",
    synthetic: false,
    syntheticField: "synthetic",
    categoryField: "mode",
    fields: ["name", "mode", "stop_id", "synthetic"],
    geometry: { kind: "point", coords },
    row: (i) => {
      const s = stations[i];
      if (s) return [s.name, s.mode, s.stopId, false];
      const b = stops[i - stations.length] as StopFeature;
      return [b.name, "bus", b.stopId, true];
    },
  };
}

export function suburbsLayer(suburbs: readonly Suburb[]): LayerInput {
  const features = suburbs.map((s) => ({
    properties: { name: s.name, id: s.salCode, lga: s.lga, lx: s.label[0], ly: s.label[1] },
    geometry: s.geometry,
  }));
  return buildLayer("suburbs", features, false, { defaultState: "NSW" }).layer;
}

/** The stations, the world's bus stops and the suburbs, as one pack every suburb's lots are assessed with. */
export function sharedPack(ctx: WorldContext, stops: readonly StopFeature[] = []): Pack {
  const layers = [transportLayer(ctx.stations, stops), suburbsLayer(ctx.suburbs)];
  return memoryPack({ id: "shared", version: "1", meta: META, layers, order: "index" });
}
