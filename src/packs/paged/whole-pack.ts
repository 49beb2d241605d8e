// A small pack of layers read whole and joined into one v1-shaped Pack: each layer's pages become one Layer, so a
// feature that finds a layer by its pack's id sees all of it, as it did when such packs were v1 and decoded whole.
import type { Columns } from "../../geo/types.ts";
import { featureVertices } from "../feature-vertices.ts";
import type { Layer, Pack } from "../types.ts";
import { PagedPackError, PageRefusedError } from "./errors.ts";
import { type DecodedPage, decodePage } from "./page.ts";
import { degreesIndex } from "./page-layer.ts";
import { pagePack } from "./page-pack.ts";
import { readPlan } from "./plan-reads.ts";
import type { PagedPack, Snapshot } from "./reader.ts";
import { decodeRoot } from "./root.ts";
import { FORMAT_VERSION, HEADER_BYTES, packMetaOf, readHeader } from "./schema.ts";
import { runAt } from "./starts.ts";

// A pack of layers is read whole when opened (the demo pack of nine layers is 335 KB, the suburbs 83 KB); above
// this (beyond an upload's 25 MiB cap) it is refused: large layers belong in a lots pack, read by range.
export const WHOLE_PACK_MAX_BYTES = 32 * 1024 * 1024;

const NONE = new Uint32Array(0);

// Where each part's features start in the joined layer, count+1 entries.
function startsOf(parts: readonly Layer[]): Uint32Array {
  const starts = new Uint32Array(parts.length + 1);
  parts.forEach((p, k) => {
    starts[k + 1] = (starts[k] as number) + p.count;
  });
  return starts;
}

// Offsets of each part after the first shifted by what the parts before it hold, their leading 0 dropped.
function joinOffsets(lists: readonly Uint32Array[], bases: readonly number[]): Uint32Array {
  const out = new Uint32Array(1 + lists.reduce((n, l) => n + l.length - 1, 0));
  let at = 1;
  lists.forEach((l, k) => {
    const base = bases[k] as number;
    for (let j = 1; j < l.length; j++) out[at++] = (l[j] as number) + base;
  });
  return out;
}

function joinColumns(parts: readonly Layer[]): Columns {
  const coords = new Float64Array(parts.reduce((n, p) => n + p.coords.length, 0));
  let at = 0;
  for (const p of parts) {
    coords.set(p.coords, at);
    at += p.coords.length;
  }
  if (parts[0]?.kind === "point") return { coords, ringOffsets: NONE, polyOffsets: NONE, featureOffsets: NONE };
  const last = (a: Uint32Array) => a[a.length - 1] as number;
  const before = (f: (p: Layer) => number) => parts.map((_, k) => parts.slice(0, k).reduce((n, p) => n + f(p), 0));
  return {
    coords,
    ringOffsets: joinOffsets(
      parts.map((p) => p.ringOffsets),
      before((p) => last(p.ringOffsets)),
    ),
    polyOffsets: joinOffsets(
      parts.map((p) => p.polyOffsets),
      before((p) => p.ringOffsets.length - 1),
    ),
    featureOffsets: joinOffsets(
      parts.map((p) => p.featureOffsets),
      before((p) => p.polyOffsets.length - 1),
    ),
  };
}

/** One layer from its pages' layers, in page order (features keep that order). */
export function joinLayers(parts: readonly Layer[]): Layer {
  const [first] = parts;
  if (!first) throw new RangeError("a layer needs at least one page");
  if (parts.length === 1) return first;
  const starts = startsOf(parts);
  const count = starts[parts.length] as number;
  const columns = joinColumns(parts);
  const { index, bbox } = degreesIndex(columns, count, first.kind === "point");
  const at = (i: number): [Layer, number] => {
    const k = runAt(starts, i);
    return [parts[k] as Layer, i - (starts[k] as number)];
  };
  const record = first.record;
  return {
    ...first,
    ...columns,
    count,
    bbox,
    index,
    indexOrder: false,
    syntheticCount: parts.reduce((n, p) => n + p.syntheticCount, 0),
    featureVertices: first.kind === "polygon" ? featureVertices(columns, count) : null,
    props: (i) => {
      const [p, j] = at(i);
      return p.props(j);
    },
    ...(record
      ? {
          record: (i: number) => {
            const [p, j] = at(i);
            return (p.record ?? record)(j);
          },
        }
      : {}),
  };
}

/** Every page of one version of a pack (in page order) joined into one Pack of its layers. */
export function wholePack(s: Snapshot, pages: readonly DecodedPage[]): Pack {
  const meta = s.root.meta;
  if (pages.length !== s.root.pageCount) {
    throw new RangeError(`pack ${s.key}: ${pages.length} pages given of its ${s.root.pageCount}`);
  }
  const byLayer = new Map<string, Layer[]>();
  for (const page of pages) {
    for (const layer of pagePack(s, page).layers.values()) {
      const list = byLayer.get(layer.name) ?? [];
      list.push(layer);
      byLayer.set(layer.name, list);
    }
  }
  return {
    id: meta.id,
    version: meta.version,
    formatVersion: FORMAT_VERSION,
    meta: packMetaOf(meta),
    bbox: meta.bbox,
    checksum: s.header.rootCrc,
    byteLength: s.header.objectLength,
    layers: new Map([...byLayer].map(([name, parts]) => [name, joinLayers(parts)])),
  };
}

/** Whether a version is read whole: a pack of layers (root `layers`); a lots pack is read by range. */
export function readsWhole(s: Snapshot): boolean {
  return s.root.meta.layers !== undefined;
}

/** The current version of `pack` read whole, in one planned read past the page cache; a damaged page refuses it. */
export async function readWhole(pack: PagedPack, signal?: AbortSignal): Promise<Pack> {
  const s = await pack.snapshot(signal);
  if (s.header.objectLength > WHOLE_PACK_MAX_BYTES) {
    const mib = (n: number) => (n / 2 ** 20).toFixed(1);
    throw new PagedPackError(
      s.key,
      `pack ${s.key} is a pack of layers of ${mib(s.header.objectLength)} MiB, more than the ${mib(WHOLE_PACK_MAX_BYTES)} MiB one is read whole`,
    );
  }
  const all = Array.from({ length: s.root.pageCount }, (_, i) => i);
  const set = await readPlan(pack.planPages(s, all), { keep: false, signal });
  const [bad] = set.refused;
  if (bad) throw new PageRefusedError(bad.key, bad.message, bad.page);
  return wholePack(set.snapshot, set.pages);
}

/**
 * A whole v2 file already in memory (a script's or a test's) read as `readWhole` reads an object: header, root and
 * every page checked, then joined. Synchronous, as a file read whole needs no range reads.
 */
export function wholePackOfBytes(given: Uint8Array, key: string): Pack {
  // A plain view: the decoders copy with slice(), which a Node Buffer (a file read) shares instead of copying.
  const bytes = new Uint8Array(given.buffer, given.byteOffset, given.byteLength);
  const header = readHeader(bytes, key);
  if (bytes.length !== header.objectLength) {
    const what = bytes.length < header.objectLength ? "is truncated" : "has trailing bytes";
    throw new PagedPackError(
      key,
      `pack ${key} ${what}: header says ${header.objectLength} bytes, file holds ${bytes.length}`,
    );
  }
  const root = decodeRoot(bytes.subarray(HEADER_BYTES, HEADER_BYTES + header.rootLength), header, key);
  const at = root.pageOffsets;
  const pages = Array.from({ length: root.pageCount }, (_, no) =>
    decodePage(
      bytes.subarray(at[no] as number, at[no + 1] as number),
      no,
      root.pageCrcs[no] as number,
      root.meta.columns,
      key,
      root.pageCounts[no],
    ),
  );
  return wholePack({ key, etag: "", header, root }, pages);
}
