// A Mapbox Vector Tile 2.1 writer over `pbf`: layers of features already in tile units, keys and values shared per layer.
import { PbfWriter as Pbf } from "pbf";
import { EXTENT } from "./math.ts";

export const GEOM_POINT = 1;
export const GEOM_POLYGON = 3;

export type TileValue = string | number | boolean;

export type TileFeature = {
  id: number;
  type: typeof GEOM_POINT | typeof GEOM_POLYGON;
  // Point: one [x, y] per point. Polygon: rings as flat open x,y lists, each exterior followed by its holes,
  // exteriors clockwise on screen (positive ringArea2), holes the other way.
  rings: number[][];
  props: Record<string, TileValue>;
};

export type TileLayer = { name: string; features: TileFeature[] };

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: number, count: number) => (id & 0x7) | (count << 3);

function geometry(f: TileFeature): number[] {
  const out: number[] = [];
  let cx = 0;
  let cy = 0;
  if (f.type === GEOM_POINT) {
    out.push(command(1, f.rings.length));
    for (const p of f.rings) {
      out.push(zigzag((p[0] as number) - cx), zigzag((p[1] as number) - cy));
      cx = p[0] as number;
      cy = p[1] as number;
    }
    return out;
  }
  for (const ring of f.rings) {
    const n = ring.length / 2;
    out.push(command(1, 1), zigzag((ring[0] as number) - cx), zigzag((ring[1] as number) - cy));
    cx = ring[0] as number;
    cy = ring[1] as number;
    out.push(command(2, n - 1));
    for (let i = 1; i < n; i++) {
      const x = ring[2 * i] as number;
      const y = ring[2 * i + 1] as number;
      out.push(zigzag(x - cx), zigzag(y - cy));
      cx = x;
      cy = y;
    }
    out.push(command(7, 1));
  }
  return out;
}

function writeValue(v: TileValue, pbf: Pbf): void {
  if (typeof v === "string") pbf.writeStringField(1, v);
  else if (typeof v === "boolean") pbf.writeBooleanField(7, v);
  else if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER)
    v >= 0 ? pbf.writeVarintField(5, v) : pbf.writeSVarintField(6, v);
  else pbf.writeDoubleField(3, v);
}

function writeLayer(layer: TileLayer, pbf: Pbf): void {
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, layer.name);
  const keys = new Map<string, number>();
  const values = new Map<string, number>();
  const valueList: TileValue[] = [];
  for (const f of layer.features) {
    const tags: number[] = [];
    for (const [k, v] of Object.entries(f.props)) {
      let ki = keys.get(k);
      if (ki === undefined) {
        ki = keys.size;
        keys.set(k, ki);
      }
      const vk = `${typeof v}:${String(v)}`;
      let vi = values.get(vk);
      if (vi === undefined) {
        vi = valueList.length;
        values.set(vk, vi);
        valueList.push(v);
      }
      tags.push(ki, vi);
    }
    pbf.writeMessage(2, writeFeature, { f, tags });
  }
  for (const k of keys.keys()) pbf.writeStringField(3, k);
  for (const v of valueList) pbf.writeMessage(4, writeValue, v);
  pbf.writeVarintField(5, EXTENT);
}

function writeFeature({ f, tags }: { f: TileFeature; tags: number[] }, pbf: Pbf): void {
  pbf.writeVarintField(1, f.id);
  if (tags.length > 0) pbf.writePackedVarint(2, tags);
  pbf.writeVarintField(3, f.type);
  pbf.writePackedVarint(4, geometry(f));
}

/** Encodes the layers that hold features; an empty result means the tile holds nothing. */
export function encodeTile(layers: readonly TileLayer[]): Uint8Array {
  const pbf = new Pbf();
  for (const layer of layers) if (layer.features.length > 0) pbf.writeMessage(3, writeLayer, layer);
  return pbf.finish();
}
