// A small pack of layers read whole (issue 48, item 1): the demo pack converted to v2 in pages small enough that its
// layers span several, read in one range and joined, is the v1 pack: every layer's features, marks and lookups; the
// same bytes read synchronously (a file in memory) are the same pack.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { featureAt } from "../../../../src/packs/lookup.ts";
import { readPackBytes } from "../../../../src/packs/pack-bytes.ts";
import {
  clearRootMemo,
  MemorySource,
  PageCache,
  PagedPack,
  PagedPackError,
  PageRefusedError,
  readWhole,
} from "../../../../src/packs/paged/index.ts";
import type { Layer, Pack } from "../../../../src/packs/types.ts";
import { v1ToV2 } from "../../../../src/packs/v1/to-v2.ts";
import { featuresOf, layerMarks, sorted } from "../layer-features.ts";
import { v1Bytes, v1Pack } from "../v1-committed.ts";

let v1: Pack;
let source: MemorySource;
let whole: Pack;
let pagesPerLayer: Map<string, number>;
let bytes: Uint8Array;

beforeAll(async () => {
  v1 = v1Pack("sydney-demo");
  bytes = await v1ToV2(v1, { pageBytes: 16 * 1024 });
  clearRootMemo();
  source = new MemorySource("public/sydney-demo.pack", bytes);
  const reader = new PagedPack(source, { cache: new PageCache(1 << 20), log: () => {} });
  whole = await readWhole(reader);
  const s = await reader.snapshot();
  pagesPerLayer = new Map((s.root.meta.layers ?? []).map((l) => [l.name, l.pages[1] - l.pages[0]]));
});

describe("a pack of layers read whole", () => {
  it("is read in two requests: its header and root, then every page in one range", () => {
    expect(Math.max(...pagesPerLayer.values())).toBeGreaterThan(1);
    expect(source.reads).toBe(2);
  });

  it("has v1's layers, each with every feature, kind, field, category and synthetic mark", () => {
    expect([...whole.layers.keys()].sort()).toEqual([...v1.layers.keys()].sort());
    expect(whole.id).toBe(v1.id);
    expect(whole.version).toBe(v1.version);
    expect(whole.meta.title).toBe(v1.meta.title);
    for (const want of v1.layers.values()) {
      const got = whole.layers.get(want.name) as Layer;
      expect(layerMarks(got)).toEqual(layerMarks(want));
      expect(sorted(featuresOf(got))).toEqual(sorted(featuresOf(want)));
      for (let k = 0; k < 4; k++) expect(got.bbox[k]).toBeCloseTo(want.bbox[k] as number, 6);
    }
  });

  it("finds the same lot as v1 at the vertex mean of every seventh lot, across page boundaries", () => {
    const want = v1.layers.get("parcels") as Layer;
    const got = whole.layers.get("parcels") as Layer;
    expect(pagesPerLayer.get("parcels")).toBeGreaterThan(1);
    let checked = 0;
    for (let i = 0; i < want.count; i += 7) {
      const v = want.ringOffsets[want.polyOffsets[want.featureOffsets[i] as number] as number] as number;
      const w = want.ringOffsets[(want.polyOffsets[want.featureOffsets[i] as number] as number) + 1] as number;
      // The ring's vertex mean: inside the demo's convex lots.
      let x = 0;
      let y = 0;
      for (let k = v; k < w; k++) {
        x += want.coords[2 * k] as number;
        y += want.coords[2 * k + 1] as number;
      }
      x /= w - v;
      y /= w - v;
      const a = featureAt(want, x, y);
      const b = featureAt(got, x, y);
      expect(b >= 0 ? got.props(b).lot_id : null).toBe(a >= 0 ? want.props(a).lot_id : null);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe("a pack of layers read from bytes in memory (readPackBytes)", () => {
  it("is the pack readWhole reads: every layer's marks, features and box", () => {
    const got = readPackBytes(bytes, "memory:sydney-demo");
    expect(got.formatVersion).toBe(2);
    expect([...got.layers.keys()]).toEqual([...whole.layers.keys()]);
    expect(got.meta).toEqual(whole.meta);
    expect(got.byteLength).toBe(bytes.length);
    for (const want of whole.layers.values()) {
      const layer = got.layers.get(want.name) as Layer;
      expect(layerMarks(layer)).toEqual(layerMarks(want));
      expect(featuresOf(layer)).toEqual(featuresOf(want));
      expect(layer.bbox).toEqual(want.bbox);
    }
  });

  it("reads the committed demo pack, a file read from disk (a Node Buffer), as v1 built it", () => {
    const got = readPackBytes(readFileSync("packs/sydney-demo.pack"), "packs/sydney-demo.pack");
    expect(got.formatVersion).toBe(2);
    for (const want of v1.layers.values()) {
      const layer = got.layers.get(want.name) as Layer;
      expect(layerMarks(layer)).toEqual(layerMarks(want));
      expect(sorted(featuresOf(layer))).toEqual(sorted(featuresOf(want)));
    }
  });

  it("refuses a truncated file and a damaged page, naming them", () => {
    expect(() => readPackBytes(bytes.subarray(0, bytes.length - 8), "cut")).toThrow(PagedPackError);
    expect(() => readPackBytes(bytes.subarray(0, bytes.length - 8), "cut")).toThrow(/pack cut is truncated/);
    const damaged = bytes.slice();
    // A byte inside page 0, which starts at the header's data start.
    const at = new DataView(damaged.buffer).getUint32(16, true) + 100;
    damaged[at] = (damaged[at] as number) ^ 0xff;
    expect(() => readPackBytes(damaged, "damaged")).toThrow(PageRefusedError);
    expect(() => readPackBytes(damaged, "damaged")).toThrow(/pack damaged page 0 refused/);
  });

  it("reads v1 bytes (a file written before v2) by the v1 reader", () => {
    const got = readPackBytes(v1Bytes("sydney-suburbs"));
    expect(got.formatVersion).toBe(1);
    expect(got.layers.get("suburbs")?.count).toBe(648);
  });
});
