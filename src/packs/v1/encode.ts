// Writes layers of features into the pack file format (format.ts) with a flatbush index per layer.
import { checksum32 } from "./checksum.ts";
import { featureVertices } from "../feature-vertices.ts";
import { ALIGN, FIXED_HEADER_BYTES, FORMAT_VERSION, MAGIC, align } from "./format.ts";
import type { AnySectionName, Directory, LayerEntry, Section } from "./format.ts";
import { nextTask } from "../../lib/next-task.ts";
import {
  checkColumns,
  countSynthetic,
  featureBoxes,
  featureCount,
  indexOfBoxes,
  packBox,
  toIndexOrder,
} from "../layer-input.ts";
import type { BBox, LayerInput, PackInput } from "../types.ts";

type Built = { entry: LayerEntry; blobs: Partial<Record<AnySectionName, Uint8Array>> };

const EMPTY = new Uint8Array(0);

function bytesOf(a: Float64Array | Uint32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

// Rows JSON-encoded between two pauses of a paced encode (tens of milliseconds).
const ROWS_PER_STEP = 20_000;

function* encodeProps(layer: LayerInput, count: number): Steps<{ offsets: Uint32Array; data: Uint8Array }> {
  const encoder = new TextEncoder();
  const offsets = new Uint32Array(count + 1);
  let data = new Uint8Array(Math.max(1024, count * 32));
  let pos = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % ROWS_PER_STEP === 0) yield;
    const row = layer.row(i);
    if (row.length !== layer.fields.length)
      throw new Error(`layer ${layer.name}: feature ${i} has ${row.length} values for ${layer.fields.length} fields`);
    const text = JSON.stringify(row);
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    if (pos + text.length * 3 > data.length) {
      const grown = new Uint8Array(Math.max(data.length * 2, pos + text.length * 3));
      grown.set(data.subarray(0, pos));
      data = grown;
    }
    pos += encoder.encodeInto(text, data.subarray(pos)).written;
    offsets[i + 1] = pos;
  }
  return { offsets, data: data.subarray(0, pos) };
}

function* buildLayer(input: LayerInput, order: "input" | "index"): Steps<Built> {
  let layer = input;
  const count = featureCount(layer);
  checkColumns(layer, count);
  const boxes = featureBoxes(layer, count);
  yield;
  const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  let index = EMPTY;
  if (count > 0) {
    const fb = indexOfBoxes(boxes, count);
    yield;
    if (order === "index") layer = toIndexOrder(layer, fb, count);
    yield;
    index = new Uint8Array(fb.data as ArrayBuffer);
    bbox[0] = fb.minX;
    bbox[1] = fb.minY;
    bbox[2] = fb.maxX;
    bbox[3] = fb.maxY;
  } else {
    bbox.fill(0);
  }
  const props = yield* encodeProps(layer, count);
  const g = layer.geometry;
  const poly = g.kind === "polygon" ? g : null;
  const blobs: Partial<Record<AnySectionName, Uint8Array>> = {
    index,
    coords: bytesOf(g.coords),
    ringOffsets: poly ? bytesOf(poly.ringOffsets) : EMPTY,
    polyOffsets: poly ? bytesOf(poly.polyOffsets) : EMPTY,
    featureOffsets: poly ? bytesOf(poly.featureOffsets) : EMPTY,
    propOffsets: bytesOf(props.offsets),
    propData: props.data,
  };
  if (poly) blobs.featureVertices = bytesOf(featureVertices(poly, count));
  yield;
  const zero: Section = [0, 0];
  const entry: LayerEntry = {
    name: layer.name,
    kind: g.kind,
    count,
    synthetic: layer.synthetic,
    categoryField: layer.categoryField ?? null,
    fields: [...layer.fields],
    bbox,
    rings: poly ? poly.ringOffsets.length - 1 : 0,
    polygons: poly ? poly.polyOffsets.length - 1 : 0,
    vertices: g.coords.length >>> 1,
    sections: {
      index: zero,
      coords: zero,
      ringOffsets: zero,
      polyOffsets: zero,
      featureOffsets: zero,
      propOffsets: zero,
      propData: zero,
    },
  };
  if (order === "index") entry.order = "index";
  if (layer.syntheticField !== undefined) {
    entry.syntheticField = layer.syntheticField;
    entry.syntheticCount = countSynthetic(layer, count);
  }
  return { entry, blobs };
}

/** An encode in steps: each `yield` is a pause between bounded pieces of work, for a caller that must share its thread. */
type Steps<T> = Generator<void, T, void>;

// Encodes a pack; the same input always yields the same bytes (no clocks, stable key order).
export function encodePack(input: PackInput): Uint8Array {
  const steps = encodeSteps(input);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** encodePack, yielding to the event loop between its steps: an upload's large layer encoded in its request. */
export async function encodePackPaced(input: PackInput): Promise<Uint8Array> {
  const steps = encodeSteps(input);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTask();
  }
}

function* encodeSteps(input: PackInput): Steps<Uint8Array> {
  const names = new Set<string>();
  for (const l of input.layers) {
    if (names.has(l.name)) throw new Error(`duplicate layer ${l.name}`);
    names.add(l.name);
  }
  const built: Built[] = [];
  for (const l of input.layers) built.push(yield* buildLayer(l, input.order ?? "input"));
  const bbox = packBox(built.map((b) => b.entry));

  // Section offsets depend on the directory length, which depends on the offsets: iterate until stable.
  const directory: Directory = {
    id: input.id,
    version: input.version,
    bbox,
    meta: input.meta,
    layers: built.map((b) => b.entry),
  };
  let dirBytes: Uint8Array = new Uint8Array(0);
  let dataStart = -1;
  for (let attempt = 0; attempt < 8; attempt++) {
    let pos = Math.max(dataStart, 0);
    for (const b of built) {
      for (const name of Object.keys(b.blobs) as AnySectionName[]) {
        const blob = b.blobs[name] as Uint8Array;
        b.entry.sections[name] = [blob.byteLength === 0 ? 0 : pos, blob.byteLength];
        pos = align(pos + blob.byteLength);
      }
    }
    dirBytes = new TextEncoder().encode(JSON.stringify(directory));
    const start = align(FIXED_HEADER_BYTES + dirBytes.byteLength);
    if (start === dataStart) break;
    dataStart = start;
  }

  let total = dataStart;
  for (const b of built)
    for (const [off, len] of Object.values(b.entry.sections) as Section[]) total = Math.max(total, align(off + len));
  const out = new Uint8Array(total);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint16(4, FORMAT_VERSION, true);
  view.setUint32(8, dirBytes.byteLength, true);
  view.setUint32(16, total, true);
  out.set(dirBytes, FIXED_HEADER_BYTES);
  // Directory padding is spaces so the JSON stays parseable if read with its padding.
  out.fill(0x20, FIXED_HEADER_BYTES + dirBytes.byteLength, dataStart);
  for (const b of built) {
    for (const name of Object.keys(b.blobs) as AnySectionName[]) {
      const blob = b.blobs[name] as Uint8Array;
      if (blob.byteLength > 0) out.set(blob, (b.entry.sections[name] as Section)[0]);
    }
  }
  yield;
  view.setUint32(12, checksum32(out.subarray(16)), true);
  if (out.byteLength % ALIGN !== 0) throw new Error("pack length must be 8-byte aligned");
  return out;
}
