// Mapbox Vector Tile 2.1 writer over pbf: tile features (already in integer tile units) straight to bytes,
// with per-layer key and value tables, so no GeoJSON or geojson-vt intermediate is built per request.
import { PbfWriter } from "pbf";
import { EXTENT } from "./coords.ts";
import type { TileFeature } from "./cut.ts";

export type TileLayer = { name: string; features: TileFeature[] };

type LayerState = {
  layer: TileLayer;
  keys: string[];
  keyIndex: Map<string, number>;
  values: unknown[];
  valueIndex: Map<string, number>;
};

const CMD_MOVE_TO = 1;
const CMD_LINE_TO = 2;
const CMD_CLOSE = 7;

function command(id: number, count: number): number {
  return (id & 0x7) | (count << 3);
}

function zigzag(n: number): number {
  return (n << 1) ^ (n >> 31);
}

function geometry(f: TileFeature): number[] {
  const out: number[] = [];
  let x = 0;
  let y = 0;
  for (const ring of f.rings) {
    const n = ring.length >> 1;
    if (f.type === "point") {
      out.push(command(CMD_MOVE_TO, 1), zigzag((ring[0] as number) - x), zigzag((ring[1] as number) - y));
      x = ring[0] as number;
      y = ring[1] as number;
      continue;
    }
    out.push(command(CMD_MOVE_TO, 1), zigzag((ring[0] as number) - x), zigzag((ring[1] as number) - y));
    x = ring[0] as number;
    y = ring[1] as number;
    out.push(command(CMD_LINE_TO, n - 1));
    for (let i = 1; i < n; i++) {
      const nx = ring[2 * i] as number;
      const ny = ring[2 * i + 1] as number;
      out.push(zigzag(nx - x), zigzag(ny - y));
      x = nx;
      y = ny;
    }
    out.push(command(CMD_CLOSE, 1));
  }
  return out;
}

function tags(state: LayerState, props: Record<string, unknown>): number[] {
  const out: number[] = [];
  for (const [k, v] of Object.entries(props)) {
    let ki = state.keyIndex.get(k);
    if (ki === undefined) {
      ki = state.keys.push(k) - 1;
      state.keyIndex.set(k, ki);
    }
    const vk = `${typeof v}:${String(v)}`;
    let vi = state.valueIndex.get(vk);
    if (vi === undefined) {
      vi = state.values.push(v) - 1;
      state.valueIndex.set(vk, vi);
    }
    out.push(ki, vi);
  }
  return out;
}

function writeValue(v: unknown, pbf: PbfWriter): void {
  if (typeof v === "string") pbf.writeStringField(1, v);
  else if (typeof v === "boolean") pbf.writeBooleanField(7, v);
  else if (typeof v === "number") {
    if (Number.isSafeInteger(v)) {
      if (v >= 0) pbf.writeVarintField(5, v);
      else pbf.writeSVarintField(6, v);
    } else pbf.writeDoubleField(3, v);
  }
}

function writeFeature({ f, state }: { f: TileFeature; state: LayerState }, pbf: PbfWriter): void {
  pbf.writeVarintField(1, f.id);
  pbf.writePackedVarint(2, tags(state, f.props));
  pbf.writeVarintField(3, f.type === "point" ? 1 : 3);
  pbf.writePackedVarint(4, geometry(f));
}

function writeLayer(state: LayerState, pbf: PbfWriter): void {
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, state.layer.name);
  for (const f of state.layer.features) pbf.writeMessage(2, writeFeature, { f, state });
  for (const k of state.keys) pbf.writeStringField(3, k);
  for (const v of state.values) pbf.writeMessage(4, writeValue, v);
  pbf.writeVarintField(5, EXTENT);
}

/** The tile's bytes; layers without features are left out. */
export function encodeTile(layers: readonly TileLayer[]): Uint8Array {
  const pbf = new PbfWriter();
  for (const layer of layers) {
    if (layer.features.length === 0) continue;
    const state: LayerState = { layer, keys: [], keyIndex: new Map(), values: [], valueIndex: new Map() };
    pbf.writeMessage(3, writeLayer, state);
  }
  return pbf.finish();
}
