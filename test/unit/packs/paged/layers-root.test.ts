// A crafted root's layers (every checksum re-sealed) are refused with a sentence when they break a rule: pages 0 to
// the last covered in order with no gap or overlap, counts that are their pages' counts, fields that are columns,
// category and synthetic fields among them, synthetic counts within bounds; any other change reads or is refused
// cleanly, never a TypeError, down to every page's view.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  clearRootMemo,
  MemorySource,
  PageCache,
  PagedPack,
  PagedPackError,
  pagePack,
} from "../../../../src/packs/paged/index.ts";
import { v1ToV2 } from "../../../../src/packs/v1/to-v2.ts";
import { type Crafted, putTogether, takeApart } from "../../../support/crafted-pack.ts";
import { v1Pack } from "../v1-committed.ts";

type LayerJson = {
  name: unknown;
  kind: unknown;
  pages: [number, number];
  count: number;
  fields: unknown[];
  categoryField: unknown;
  synthetic: unknown;
  syntheticField: unknown;
  syntheticCount: number;
};

let base: Crafted;
let seq = 0;

beforeAll(async () => {
  // The demo as v1 wrote it, converted: the converter writes every pack of layers' root as the builders do.
  const demo = v1Pack("sydney-demo");
  // 16 KiB pages: the parcels layer over many pages, each overlay on one.
  base = takeApart(await v1ToV2(demo, { pageBytes: 16 * 1024 }));
}, 60_000);

const copy = (): Crafted => ({ ...base, meta: structuredClone(base.meta) });
const layersOf = (c: Crafted) => c.meta.layers as LayerJson[];

/** Reads the root, then every page as its view and every feature's props: "read", or "refused" (a PagedPackError). */
async function readAll(c: Crafted): Promise<{ outcome: "read" | "refused"; message: string }> {
  clearRootMemo();
  const source = new MemorySource(`public/layers-${seq++}@v.pack`, putTogether(c));
  const reader = new PagedPack(source, { cache: new PageCache(64 << 20), log: () => {} });
  try {
    const s = await reader.snapshot();
    const { pages } = await reader.pagesForBox([-180, -90, 180, 90]);
    for (const page of pages)
      for (const l of pagePack(s, page).layers.values()) for (let i = 0; i < l.count; i++) l.props(i);
    return { outcome: "read", message: "" };
  } catch (e) {
    // Anything but a PagedPackError (a TypeError above all) fails the test here.
    if (!(e instanceof PagedPackError)) throw e;
    return { outcome: "refused", message: e.message };
  }
}

describe("a crafted root's layers", () => {
  it("as built, every page reads as its layer", async () => {
    const c = copy();
    expect(layersOf(c).map((l) => l.name)).toContain("transport");
    expect((layersOf(c)[0]?.pages[1] ?? 0) > 1).toBe(true);
    expect(await readAll(c)).toEqual({ outcome: "read", message: "" });
  });

  const last = (c: Crafted) => layersOf(c)[layersOf(c).length - 1] as LayerJson;
  const second = (c: Crafted) => layersOf(c)[1] as LayerJson;
  const parcels = (c: Crafted) => layersOf(c)[0] as LayerJson;
  const transport = (c: Crafted) => layersOf(c).find((l) => l.name === "transport") as LayerJson;
  it.each<[string, (c: Crafted) => void, RegExp]>([
    [
      "a gap between two layers",
      (c) => second(c).pages[0]++,
      /layers\.1\.pages: layer zoning starts at page \d+, not \d+/,
    ],
    ["two layers overlapping", (c) => second(c).pages[0]--, /zoning starts at page \d+, not \d+/],
    [
      "two layers out of order",
      (c) => {
        const ls = layersOf(c);
        [ls[1], ls[2]] = [ls[2] as LayerJson, ls[1] as LayerJson];
      },
      /fsr starts at page \d+, not \d+/,
    ],
    ["a first layer not at page 0", (c) => parcels(c).pages[0]++, /parcels starts at page 1, not 0/],
    ["layers ending before the last page", (c) => last(c).pages[1]--, /layers end at page \d+, the pack has \d+ pages/],
    ["layers ending past the last page", (c) => last(c).pages[1]++, /layers end at page \d+, the pack has \d+ pages/],
    ["pages that end before they start", (c) => (second(c).pages = [7, 6]), /pages must not end before they start/],
    [
      "a count its pages do not hold",
      (c) => transport(c).count++,
      /layer transport counts 133 features, its pages hold 132/,
    ],
    ["a field that is no column", (c) => parcels(c).fields.push("nope"), /parcels's field nope is not a column/],
    ["a field named twice", (c) => parcels(c).fields.push("lot_id"), /a layer names a field twice/],
    [
      "a category field not among its fields",
      (c) => (second(c).categoryField = "lot_id"),
      /categoryField is not a field/,
    ],
    ["a synthetic field not among its fields", (c) => (transport(c).syntheticField = "zone"), /syntheticField is not/],
    ["more synthetic features than features", (c) => (transport(c).syntheticCount = 1e6), /must not pass its count/],
    ["a synthetic layer with real features", (c) => parcels(c).syntheticCount--, /features are all synthetic/],
    ["two layers of one name", (c) => (second(c).name = "parcels"), /two layers share a name/],
    ["an unknown kind", (c) => (second(c).kind = "multipoint"), /layers\.1\.kind/],
    ["a count that is not a number", (c) => (second(c).count = Number.NaN), /layers\.1\.count/],
    ["65 layers", (c) => (c.meta.layers = Array.from({ length: 65 }, () => second(c))), /layers: /],
    ["an upload that is not one", (c) => (c.meta.upload = { layer: 7 }), /upload\.layer/],
  ])("refuses %s with a sentence", async (_, edit, why) => {
    const c = copy();
    edit(c);
    const r = await readAll(c);
    expect(r.outcome).toBe("refused");
    expect(r.message).toMatch(/root index refused: /);
    expect(r.message).toMatch(why);
  });

  it("refuses a point layer's page whose features are not one vertex each, naming the page", async () => {
    const c = copy();
    second(c).kind = "point";
    const r = await readAll(c);
    expect(r.message).toMatch(/page \d+ refused: layer zoning is a point layer, but not every feature is one vertex/);
  });

  it("reads a root without layers as one parcels layer over every page, as packs written before them", async () => {
    const c = copy();
    delete c.meta.layers;
    expect(await readAll(c)).toEqual({ outcome: "read", message: "" });
  });

  it("answers or refuses cleanly any layer field removed or of another type", async () => {
    const fields = ["name", "kind", "pages", "count", "bbox", "fields", "categoryField", "synthetic"] as const;
    const more = ["syntheticField", "syntheticCount"] as const;
    const values: unknown[] = [null, "x", "", -1, 0, 0.5, 1e300, 2 ** 32, true, [], {}, [0, 1], [1, 0], ["zone"]];
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.constantFrom(...fields, ...more),
        fc.constantFrom(...values),
        fc.boolean(),
        async (at, field, value, remove) => {
          const c = copy();
          const l = layersOf(c)[at % layersOf(c).length] as Record<string, unknown>;
          if (remove) delete l[field];
          else l[field] = value;
          await readAll(c);
        },
      ),
      { numRuns: 120, seed: 48 },
    );
  });
});
