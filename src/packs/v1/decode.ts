// Reads a pack file (format.ts) into layers of columns, properties and flatbush indexes, checking it first.
import Flatbush from "flatbush";
import { checksum32 } from "./checksum.ts";
import { PackFormatError } from "../errors.ts";
import {
  ALIGN,
  FIXED_HEADER_BYTES,
  FLATBUSH_NODE_SIZE,
  FORMAT_VERSION,
  MAGIC,
  OPTIONAL_SECTION_NAMES,
  SECTION_NAMES,
  flatbushByteSize,
} from "./format.ts";
import type { AnySectionName, Directory, LayerEntry, Section } from "./format.ts";
import { VERTEX_MASK } from "../feature-vertices.ts";
import type { Layer, Pack, Props } from "../types.ts";

export type DecodeOptions = {
  // Skip the whole-file checksum when the bytes were already verified (e.g. when a cached copy is reused).
  verify?: boolean;
};

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isBBox(v: unknown): boolean {
  return Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === "number" && Number.isFinite(n));
}

function checkDirectory(v: unknown): Directory {
  const fail = (what: string): never => {
    throw new PackFormatError(`invalid directory: ${what}`);
  };
  if (!isRecord(v)) return fail("not an object");
  if (typeof v.id !== "string" || typeof v.version !== "string") fail("id and version must be strings");
  if (!isBBox(v.bbox)) fail("bbox must be four finite numbers");
  const meta = v.meta;
  if (
    !isRecord(meta) ||
    typeof meta.title !== "string" ||
    typeof meta.attribution !== "string" ||
    typeof meta.licence !== "string"
  ) {
    fail("meta needs title, attribution and licence strings");
  }
  if (!Array.isArray(v.layers)) return fail("layers must be an array");
  for (const l of v.layers as unknown[]) {
    if (!isRecord(l) || typeof l.name !== "string") return fail("a layer has no name");
    const where = `layer ${l.name}`;
    if (l.kind !== "point" && l.kind !== "polygon") fail(`${where} has unknown kind ${String(l.kind)}`);
    for (const k of ["count", "rings", "polygons", "vertices"]) {
      const n = l[k];
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0) fail(`${where} has bad ${k}`);
    }
    if (typeof l.synthetic !== "boolean") fail(`${where} has no synthetic flag`);
    if (!Array.isArray(l.fields) || !l.fields.every((f) => typeof f === "string")) fail(`${where} has bad fields`);
    if (l.categoryField !== null && typeof l.categoryField !== "string") fail(`${where} has bad categoryField`);
    if (!isBBox(l.bbox)) fail(`${where} has bad bbox`);
    if (l.order !== undefined && l.order !== "index") fail(`${where} has unknown order ${String(l.order)}`);
    if (
      l.syntheticField !== undefined &&
      (typeof l.syntheticField !== "string" || !(l.fields as string[]).includes(l.syntheticField))
    )
      fail(`${where} has bad syntheticField`);
    const sc = l.syntheticCount;
    if (sc !== undefined && (typeof sc !== "number" || !Number.isInteger(sc) || sc < 0 || sc > (l.count as number)))
      fail(`${where} has bad syntheticCount`);
    const sections = l.sections;
    if (!isRecord(sections)) return fail(`${where} has no sections`);
    for (const s of [...SECTION_NAMES, ...OPTIONAL_SECTION_NAMES]) {
      const sec = sections[s];
      if (sec === undefined && (OPTIONAL_SECTION_NAMES as readonly string[]).includes(s)) continue;
      if (
        !Array.isArray(sec) ||
        sec.length !== 2 ||
        !sec.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0)
      ) {
        fail(`${where} section ${s} is malformed`);
      }
    }
  }
  return v as Directory;
}

// Sections are checked against the real byte length and each other before any typed array is made over them.
function checkLayerBounds(e: LayerEntry, byteLength: number, dataStart: number): void {
  const where = `layer ${e.name}`;
  for (const s of [...SECTION_NAMES, ...OPTIONAL_SECTION_NAMES]) {
    const sec = e.sections[s];
    if (!sec) continue;
    const [off, len] = sec;
    if (len === 0) continue;
    if (off % ALIGN !== 0) throw new PackFormatError(`${where} section ${s} is not 8-byte aligned`);
    if (off < dataStart) throw new PackFormatError(`${where} section ${s} overlaps the header`);
    if (off + len > byteLength)
      throw new PackFormatError(
        `${where} extends past end of file (section ${s} ends at byte ${off + len}, file has ${byteLength})`,
      );
  }
  const expect = (s: AnySectionName, bytes: number) => {
    const len = (e.sections[s] as Section)[1];
    if (len !== bytes) throw new PackFormatError(`${where} section ${s} has ${len} bytes, expected ${bytes}`);
  };
  expect("index", e.count === 0 ? 0 : flatbushByteSize(e.count, FLATBUSH_NODE_SIZE));
  expect("propOffsets", (e.count + 1) * 4);
  if (e.kind === "point") {
    expect("coords", e.count * 16);
    if (e.vertices !== e.count)
      throw new PackFormatError(`${where} is a point layer with ${e.vertices} vertices for ${e.count} points`);
  } else {
    expect("coords", e.vertices * 16);
    expect("ringOffsets", (e.rings + 1) * 4);
    expect("polyOffsets", (e.polygons + 1) * 4);
    expect("featureOffsets", (e.count + 1) * 4);
    if (e.sections.featureVertices) expect("featureVertices", (e.count + 1) * 4);
  }
  if (e.kind === "point" && e.sections.featureVertices && e.sections.featureVertices[1] !== 0)
    throw new PackFormatError(`${where} is a point layer with feature vertices`);
}

// Overlay layers are read over and over (every lot in a zone reads that zone): rows of layers up to this size
// are parsed once. Larger layers (a state's cadastre) are parsed per read, so memory stays flat.
const PROPS_CACHE_MAX = 1 << 16;

function makeProps(
  name: string,
  fields: readonly string[],
  data: Uint8Array,
  offsets: Uint32Array,
): (i: number) => Props {
  const count = offsets.length - 1;
  const cache: (readonly unknown[] | undefined)[] | null = count <= PROPS_CACHE_MAX ? [] : null;
  return (i: number): Props => {
    if (!Number.isInteger(i) || i < 0 || i >= count) throw new RangeError(`layer ${name} has no feature ${i}`);
    const row = cache?.[i] ?? parseRow(i);
    // A fresh object per read: callers may change what they are given without touching the cache.
    const out: Props = {};
    for (let f = 0; f < fields.length; f++) out[fields[f] as string] = row[f] ?? null;
    return out;
  };
  function parseRow(i: number): readonly unknown[] {
    const a = offsets[i] as number;
    const b = offsets[i + 1] as number;
    if (a > b || b > data.byteLength)
      throw new PackFormatError(`layer ${name} properties of feature ${i} are out of range`);
    let row: unknown;
    try {
      row = JSON.parse(decoder.decode(data.subarray(a, b)));
    } catch {
      throw new PackFormatError(`layer ${name} properties of feature ${i} are not valid JSON`);
    }
    if (!Array.isArray(row)) throw new PackFormatError(`layer ${name} properties of feature ${i} are not a row`);
    if (cache) cache[i] = row;
    return row;
  }
}

function makeLayer(buf: ArrayBuffer, base: number, e: LayerEntry): Layer {
  const where = `layer ${e.name}`;
  const sec = (s: AnySectionName) => [base + (e.sections[s] as Section)[0], (e.sections[s] as Section)[1]] as const;
  const f64 = (s: AnySectionName) => {
    const [o, l] = sec(s);
    return new Float64Array(buf, o, l / 8);
  };
  const u32 = (s: AnySectionName) => {
    const [o, l] = sec(s);
    return new Uint32Array(buf, o, l / 4);
  };
  let index: Flatbush | null = null;
  if (e.count > 0) {
    const [o] = sec("index");
    const head = new Uint8Array(buf, o, 8);
    const headView = new DataView(buf, o, 8);
    if (head[0] !== 0xfb || head[1] !== ((3 << 4) | 8))
      throw new PackFormatError(`${where} index is not a Flatbush v3 Float64 index`);
    if (headView.getUint16(2, true) !== FLATBUSH_NODE_SIZE || headView.getUint32(4, true) !== e.count) {
      throw new PackFormatError(`${where} index does not match its feature count`);
    }
    index = Flatbush.from(buf, o);
  }
  const coords = f64("coords");
  const ringOffsets = e.kind === "polygon" ? u32("ringOffsets") : new Uint32Array(0);
  const polyOffsets = e.kind === "polygon" ? u32("polyOffsets") : new Uint32Array(0);
  const featureOffsets = e.kind === "polygon" ? u32("featureOffsets") : new Uint32Array(0);
  if (e.kind === "polygon") {
    // End-points tie the offset arrays together; the checksum covers what lies between.
    if (featureOffsets[0] !== 0 || featureOffsets[e.count] !== e.polygons)
      throw new PackFormatError(`${where} feature offsets are inconsistent`);
    if (polyOffsets[0] !== 0 || polyOffsets[e.polygons] !== e.rings)
      throw new PackFormatError(`${where} polygon offsets are inconsistent`);
    if (ringOffsets[0] !== 0 || ringOffsets[e.rings] !== e.vertices)
      throw new PackFormatError(`${where} ring offsets are inconsistent`);
  }
  const featureVertices = e.kind === "polygon" && e.sections.featureVertices ? u32("featureVertices") : null;
  if (
    featureVertices &&
    (((featureVertices[0] as number) & VERTEX_MASK) !== 0 || featureVertices[e.count] !== e.vertices)
  ) {
    throw new PackFormatError(`${where} feature vertices are inconsistent`);
  }
  const propOffsets = u32("propOffsets");
  const [po, pl] = sec("propData");
  const propData = new Uint8Array(buf, po, pl);
  if (propOffsets[0] !== 0 || propOffsets[e.count] !== pl)
    throw new PackFormatError(`${where} property offsets are inconsistent`);
  return {
    name: e.name,
    kind: e.kind,
    count: e.count,
    synthetic: e.synthetic,
    fields: e.fields,
    categoryField: e.categoryField,
    bbox: e.bbox,
    index,
    indexOrder: e.order === "index",
    syntheticField: e.syntheticField ?? null,
    syntheticCount: e.synthetic ? e.count : (e.syntheticCount ?? 0),
    coords,
    ringOffsets,
    polyOffsets,
    featureOffsets,
    featureVertices,
    props: makeProps(e.name, e.fields, propData, propOffsets),
  };
}

// Decodes a pack without copying its arrays: the layers are views over `bytes`, which must not be mutated afterwards.
export function decodePack(bytes: ArrayBuffer | Uint8Array, options: DecodeOptions = {}): Pack {
  let u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  // Typed-array views need 8-byte alignment within the buffer; copy once if the caller's slice is not aligned.
  if (u8.byteOffset % ALIGN !== 0 || !(u8.buffer instanceof ArrayBuffer)) u8 = u8.slice();
  const buf = u8.buffer as ArrayBuffer;
  const base = u8.byteOffset;
  const n = u8.byteLength;
  if (n < FIXED_HEADER_BYTES)
    throw new PackFormatError(`file too short: ${n} bytes, the header alone needs ${FIXED_HEADER_BYTES}`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (u8[i] !== MAGIC[i]) throw new PackFormatError("not a pack file: bad magic bytes (expected GAPK)");
  }
  const view = new DataView(buf, base, n);
  const version = view.getUint16(4, true);
  if (version !== FORMAT_VERSION) throw new PackFormatError(`expected pack format v${FORMAT_VERSION}, got v${version}`);
  const dirLength = view.getUint32(8, true);
  const storedChecksum = view.getUint32(12, true);
  const declaredLength = view.getUint32(16, true);
  if (FIXED_HEADER_BYTES + dirLength > n)
    throw new PackFormatError(
      `directory extends past end of file (needs ${FIXED_HEADER_BYTES + dirLength} bytes, file has ${n})`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(u8.subarray(FIXED_HEADER_BYTES, FIXED_HEADER_BYTES + dirLength)));
  } catch {
    throw new PackFormatError("directory is not valid JSON");
  }
  const dir = checkDirectory(parsed);
  const dataStart = FIXED_HEADER_BYTES + dirLength;
  for (const e of dir.layers) checkLayerBounds(e, n, dataStart);
  if (declaredLength !== n)
    throw new PackFormatError(`file length mismatch: header says ${declaredLength} bytes, got ${n}`);
  if (n % ALIGN !== 0) throw new PackFormatError(`file length ${n} is not a multiple of ${ALIGN}`);
  if (options.verify !== false) {
    const actual = checksum32(u8.subarray(16));
    if (actual !== storedChecksum) {
      throw new PackFormatError(
        `checksum mismatch: header says ${hex(storedChecksum)}, content hashes to ${hex(actual)}`,
      );
    }
  }
  const layers = new Map<string, Layer>();
  for (const e of dir.layers) {
    if (layers.has(e.name)) throw new PackFormatError(`duplicate layer ${e.name}`);
    layers.set(e.name, makeLayer(buf, base, e));
  }
  return {
    id: dir.id,
    version: dir.version,
    formatVersion: version,
    meta: dir.meta,
    bbox: dir.bbox,
    checksum: storedChecksum,
    byteLength: n,
    layers,
  };
}

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, "0")}`;
}
