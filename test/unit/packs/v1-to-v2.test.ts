// v1 to v2 (issue 48, item 1): the demo pack (9 layers, transport points marked synthetic one by one) and the suburbs
// pack converted, opened with the v2 reader over memory and every page read as a view: every layer's features, kind,
// fields, category field and synthetic marks as v1 has them; `npm run pack -- convert` writes the same bytes. The
// committed packs are v2 now: their v1 bytes are built in memory from the same sources (v1-committed.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../scripts/pack/cli.ts";
import {
  clearRootMemo,
  MemorySource,
  PageCache,
  PagedPack,
  pagePack,
  PAGE_HEADER_BYTES,
  type Snapshot,
} from "../../../src/packs/paged/index.ts";
import { summarisePaged } from "../../../src/packs/summary.ts";
import type { Layer, Pack } from "../../../src/packs/types.ts";
import { featuresOf, layerMarks, sorted } from "./layer-features.ts";
import { v1ToV2 } from "../../../src/packs/v1/to-v2.ts";
import { v1Bytes, v1Pack } from "./v1-committed.ts";

// Each page's view, in page order.
async function views(bytes: Uint8Array, key: string): Promise<{ s: Snapshot; packs: Pack[] }> {
  clearRootMemo();
  const reader = new PagedPack(new MemorySource(key, bytes), { cache: new PageCache(64 << 20), log: () => {} });
  const s = await reader.snapshot();
  const { pages, refused } = await reader.pagesForBox([-180, -90, 180, 90]);
  expect(refused).toEqual([]);
  expect(pages.map((p) => p.no)).toEqual(Array.from({ length: s.root.pageCount }, (_, i) => i));
  return { s, packs: pages.map((p) => pagePack(s, p)) };
}

// Bytes of the sections of columns a page's layer does not have (all null there), page by page.
function nullColumnBytes(bytes: Uint8Array, s: Snapshot): number[] {
  const out: number[] = [];
  const layers = s.root.meta.layers ?? [];
  for (let no = 0; no < s.root.pageCount; no++) {
    const at = s.root.pageOffsets[no] as number;
    const v = new DataView(bytes.buffer, bytes.byteOffset + at, PAGE_HEADER_BYTES + 8 * (2 + 64));
    const layer = layers.find((l) => no >= l.pages[0] && no < l.pages[1]);
    s.root.meta.columns.forEach((c, k) => {
      if (!layer?.fields.includes(c.name)) out.push(v.getUint32(PAGE_HEADER_BYTES + 8 * (2 + k) + 4, true));
    });
  }
  return out;
}

const cases = await Promise.all(
  (["sydney-demo", "sydney-suburbs"] as const).map(async (name) => {
    const v1 = v1Pack(name);
    const t = performance.now();
    const v2 = await v1ToV2(v1);
    return { name, v1, v2, ms: performance.now() - t };
  }),
);

describe("v1ToV2", () => {
  for (const { name, v1, v2, ms } of cases) {
    const share = ((100 * v2.length) / v1.byteLength).toFixed(0);
    it(`${name}: ${v1.byteLength} bytes v1, ${v2.length} bytes v2 (${share}%), converted in ${ms.toFixed(0)} ms; every layer's features, kind, fields and synthetic marks read back as v1's`, async () => {
      const { s, packs } = await views(v2, `public/${name}@v2.pack`);
      const meta = s.root.meta.layers ?? [];
      expect(meta.map((l) => l.name)).toEqual([...v1.layers.keys()]);
      for (const want of v1.layers.values()) {
        const entry = meta.find((l) => l.name === want.name);
        expect(entry && layerMarks(entry)).toEqual(layerMarks(want));
        const pages = packs.map((p) => p.layers.get(want.name)).filter((l): l is Layer => l !== undefined);
        expect(pages.length).toBe((entry?.pages[1] ?? 0) - (entry?.pages[0] ?? 0));
        for (const got of pages) {
          expect(got).toMatchObject({
            name: want.name,
            kind: want.kind,
            fields: want.fields,
            categoryField: want.categoryField,
            synthetic: want.synthetic,
            syntheticField: want.syntheticField,
          });
          // A point layer in v1's layout: one lon/lat a feature, no offsets.
          if (want.kind === "point") {
            expect(got.coords.length).toBe(2 * got.count);
            expect(got.featureOffsets.length).toBe(0);
          }
        }
        expect(pages.reduce((n, l) => n + l.syntheticCount, 0)).toBe(want.syntheticCount);
        expect(sorted(pages.flatMap(featuresOf)), `layer ${want.name}`).toEqual(sorted(featuresOf(want)));
      }
      for (const p of packs) {
        expect(p).toMatchObject({ id: v1.id, version: v1.version, meta: v1.meta });
        expect(p.layers.size).toBe(1);
      }
      expect(summarisePaged(s)).toMatchObject({
        id: v1.id,
        title: v1.meta.title,
        layers: [...v1.layers.values()].map((l) => ({
          name: l.name,
          kind: l.kind,
          count: l.count,
          synthetic: l.synthetic,
          synthetic_features: l.syntheticCount,
        })),
        features: [...v1.layers.values()].reduce((n, l) => n + l.count, 0),
        private: false,
      });
    });
  }

  const demo = cases[0] as (typeof cases)[number];
  it("stores another layer's columns, all null on a page, in a few bytes each", async () => {
    const { s } = await views(demo.v2, "public/nulls@v2.pack");
    const sizes = nullColumnBytes(demo.v2, s);
    expect(sizes.length).toBeGreaterThan(100);
    // Packed: an empty dictionary or list and a 0-bit frame; 8 bytes once aligned, beside its 8-byte section entry.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7);
  });

  it("indexes a parcels layer's lot ids: byLotId finds a lot in its layer's pages", async () => {
    clearRootMemo();
    const reader = new PagedPack(new MemorySource("public/lots@v2.pack", demo.v2), { cache: new PageCache() });
    const parcels = demo.v1.layers.get("parcels") as Layer;
    const id = String(parcels.props(42).lot_id);
    const { features } = await reader.byLotId(id);
    expect(features.map((f) => f.properties.lot_id)).toEqual([id]);
  });
});

describe("npm run pack -- convert", () => {
  const dir = mkdtempSync(join(tmpdir(), "v1-to-v2-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes v1ToV2's bytes, and refuses a v2 pack as input with a sentence", async () => {
    const input = join(dir, "suburbs-v1.pack");
    writeFileSync(input, v1Bytes("sydney-suburbs"));
    const out = join(dir, "suburbs.pack");
    await main(["convert", input, out]);
    expect(new Uint8Array(readFileSync(out))).toEqual((cases[1] as (typeof cases)[number]).v2);
    await expect(Promise.resolve(main(["convert", out, join(dir, "x.pack")]))).rejects.toThrow(
      /expected pack format v1, got v2/,
    );
  });
});
