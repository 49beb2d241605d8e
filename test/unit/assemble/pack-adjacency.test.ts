// The pack's precomputed adjacency (issue 55): the neighbours column's coding, and the neighbours it stores equal to
// what comparing the same lots' outlines at query time gives, on hand-drawn blocks cut across pages and on the 50k
// test world.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../../../scripts/dev/test-world.ts";
import { adjacencyOf } from "../../../src/assemble/adjacency.ts";
import { ringsOf } from "../../../src/assemble/read-lots.ts";
import { uploadLotsPack } from "../../../src/assess/upload-lots.ts";
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { encodePack as encodeV1 } from "../../../src/packs/v1/encode.ts";
import type { Adjacency, LotShape } from "../../../src/assemble/types.ts";
import {
  chargedView,
  decodeNeighbours,
  encodeNeighbours,
  encodePack,
  MemorySource,
  NEIGHBOURS_COLUMN,
  neighbourValues,
  neighbourValuesOf,
  PagedPack,
  pageNeighbours,
  readPlan,
} from "../../../src/packs/paged/index.ts";
import { PARCELS } from "../../../src/packs/spatial.ts";
import type { Layer } from "../../../src/packs/types.ts";
import { block, type DrawnLot, rectShape } from "./blocks.ts";

// Neighbour ids and metres (to 0.1 m, as stored), sorted: what two adjacencies are compared by.
function listed(a: Adjacency): Record<string, [string, number][]> {
  const out: Record<string, [string, number][]> = {};
  for (const [id, ns] of a)
    out[id] = ns
      .map((n): [string, number] => [n.id, Math.round(n.sharedM * 10) / 10])
      .sort((x, y) => (x[0] < y[0] ? -1 : 1));
  return out;
}

// Every lot of a paged pack: its shape as its page holds it, and the neighbours the pack stores, by lot id.
// Roots are memoised by object key: each pack read here has its own.
let objects = 0;
async function readBack(bytes: Uint8Array): Promise<{ shapes: LotShape[]; stored: Adjacency; pages: number }> {
  const paged = new PagedPack(new MemorySource(`test/adjacency-${++objects}.pack`, bytes));
  const s = await paged.snapshot();
  const set = await readPlan(
    paged.planPages(
      s,
      Array.from({ length: s.root.pageCount }, (_, k) => k),
    ),
  );
  const shapes: LotShape[] = [];
  const byOrdinal = new Map<number, string>();
  const raw: { id: string; ns: { ordinal: number; sharedM: number }[] }[] = [];
  for (const page of set.pages) {
    const layer = chargedView(paged, s, page).layers.get(PARCELS) as Layer;
    for (let i = 0; i < page.count; i++) {
      const id = String(layer.props(i).lot_id);
      const { ordinal, neighbours } = pageNeighbours(s, page, i);
      byOrdinal.set(ordinal, id);
      raw.push({ id, ns: neighbours ?? [] });
      shapes.push({ id, rings: ringsOf(layer, i) });
    }
  }
  const stored = new Map(
    raw.map((r) => [r.id, r.ns.map((n) => ({ id: byOrdinal.get(n.ordinal) ?? "?", sharedM: n.sharedM }))]),
  );
  return { shapes, stored, pages: s.root.pageCount };
}

const LOT_ID = { name: "lot_id", type: "text" } as const;

function packOf(drawn: readonly DrawnLot[], pageBytes: number): Promise<Uint8Array> {
  return encodePack(
    drawn.map((d) => ({
      geometry: { type: "Polygon", coordinates: rectShape(d.id, d.box).rings.map((r) => r.map(([x, y]) => [x, y])) },
      values: [d.id],
    })),
    {
      id: "adjacency",
      version: "1",
      columns: [LOT_ID, NEIGHBOURS_COLUMN],
      lotIdColumn: "lot_id",
      pageBytes,
      neighbours: neighbourValues,
    },
  );
}

describe("the neighbours column's coding", () => {
  it("gives back each neighbour's ordinal either side of the lot, near and far, and its metres to 0.1 m", () => {
    const list = [
      { ordinal: 1_499_999, sharedM: 612.34 },
      { ordinal: 40, sharedM: 2 },
      { ordinal: 41, sharedM: 17.26 },
      { ordinal: 39, sharedM: 31.95 },
      { ordinal: 0, sharedM: 0.04 },
    ];
    const v = encodeNeighbours(40, list) as string;
    expect(v).not.toMatch(/^\d/);
    expect(decodeNeighbours(40, v)).toEqual([
      { ordinal: 0, sharedM: 0 },
      { ordinal: 39, sharedM: 32 },
      { ordinal: 40, sharedM: 2 },
      { ordinal: 41, sharedM: 17.3 },
      { ordinal: 1_499_999, sharedM: 612.3 },
    ]);
    expect(encodeNeighbours(7, [])).toBeNull();
    expect(decodeNeighbours(7, null)).toEqual([]);
  });

  it("refuses a value it cannot read with a sentence naming it", () => {
    expect(() => decodeNeighbours(3, "B7")).toThrow(/neighbours "B7" holds "7"/);
    expect(() => decodeNeighbours(3, "BCa")).toThrow(/ends inside a neighbour/);
  });
});

// Three blocks: a row of five, a corner lot with the lots beside and behind it, and a lot across a 20 m street.
const DRAWN: DrawnLot[] = [
  ...["A", "B", "C", "D", "E"].map((id, k): DrawnLot => ({ id, box: [15 * k, 0, 15 * k + 15, 40] })),
  { id: "corner", box: [100, 0, 120, 30] },
  { id: "beside", box: [120, 0, 135, 30] },
  { id: "behind", box: [100, 30, 120, 45] },
  { id: "diagonal", box: [120, 30, 135, 45] },
  { id: "across", box: [0, 60, 30, 100] },
  { id: "sliver", box: [75, 38.5, 90, 60] },
];

describe("adjacency stored in the pack", () => {
  it("equals adjacencyOf on hand-drawn blocks, lots and their neighbours cut across pages", async () => {
    const bytes = await packOf(DRAWN, 100);
    const back = await readBack(bytes);
    expect(back.pages).toBeGreaterThan(3);
    const expected = listed(adjacencyOf(back.shapes).adjacency);
    expect(listed(back.stored)).toEqual(expected);
    // And what the blocks say: the row's lots side by side, the corner beside and behind, nothing across the street.
    expect(expected.C?.map(([id]) => id)).toEqual(["B", "D"]);
    expect(expected.corner?.map(([id]) => id)).toEqual(["behind", "beside"]);
    expect(expected.across).toEqual([]);
    expect(expected.sliver).toEqual([]);
    expect(expected.A).toEqual([["B", 40]]);
  });

  it("equals adjacencyOf over the drawn outlines in any order of the lots", () => {
    const { shapes } = block(DRAWN);
    const reversed = [...shapes].reverse();
    const { values } = neighbourValuesOf(reversed.length, (i) => (reversed[i] as LotShape).rings);
    const stored = new Map(
      reversed.map((l, i) => [
        l.id,
        decodeNeighbours(i, values[i] ?? null).map((n) => ({
          id: (reversed[n.ordinal] as LotShape).id,
          sharedM: n.sharedM,
        })),
      ]),
    );
    expect(listed(stored)).toEqual(listed(adjacencyOf(shapes).adjacency));
  });
});

describe("adjacency stored in an uploaded lots pack", () => {
  it("an upload of three lots in a row stores the middle lot's two neighbours and their 40 m", async () => {
    const row = ["A", "B", "C"].map((id, k): DrawnLot => ({ id, box: [15 * k, 0, 15 * k + 15, 40] }));
    const geoms = row.map((d) => ({
      type: "Polygon" as const,
      coordinates: rectShape(d.id, d.box).rings.map((r) => r.map(([x, y]) => [x, y])),
    }));
    const v1 = encodeV1({
      id: "upload-row",
      version: "1",
      meta: { title: "Site lots", attribution: "Uploaded", licence: "Private" },
      layers: [
        {
          name: "parcels",
          synthetic: false,
          fields: ["lot_id"],
          geometry: { kind: "polygon", ...columnsFromGeometries(geoms) },
          row: (i: number) => [`${i + 1}//DP7`],
        },
      ],
    });
    const bytes = await uploadLotsPack(
      decodePack(v1.slice().buffer),
      { overlays: [], lots: [] },
      { title: "Site lots" },
    );
    const back = await readBack(bytes);
    expect(listed(back.stored)).toEqual({
      "1//DP7": [["2//DP7", 40]],
      "2//DP7": [
        ["1//DP7", 40],
        ["3//DP7", 40],
      ],
      "3//DP7": [["2//DP7", 40]],
    });
  });
});

describe("adjacency stored in the 50k test world", () => {
  let world: Uint8Array;
  beforeAll(async () => {
    world = new Uint8Array(readFileSync((await testWorld(() => {})).path));
  }, 600_000);

  it("the lots of a run of pages: the pack's neighbours among them equal adjacencyOf over their outlines", async () => {
    const paged = new PagedPack(new MemorySource("test/world.pack", world));
    const s = await paged.snapshot();
    expect(s.root.meta.columns.some((c) => c.name === NEIGHBOURS_COLUMN.name)).toBe(true);
    const nos = [0, 1, 2, 3].map((k) => Math.min(s.root.pageCount - 1, Math.floor((s.root.pageCount * k) / 4) + 1));
    const set = await readPlan(paged.planPages(s, [...new Set(nos)]));
    const shapes: LotShape[] = [];
    const byOrdinal = new Map<number, string>();
    const raw: { id: string; ns: { ordinal: number; sharedM: number }[] }[] = [];
    for (const page of set.pages) {
      const layer = chargedView(paged, s, page).layers.get(PARCELS) as Layer;
      for (let i = 0; i < page.count; i++) {
        const { ordinal, neighbours } = pageNeighbours(s, page, i);
        const id = `#${ordinal}`;
        byOrdinal.set(ordinal, id);
        raw.push({ id, ns: neighbours ?? [] });
        shapes.push({ id, rings: ringsOf(layer, i) });
      }
    }
    expect(shapes.length).toBeGreaterThan(1000);
    // Kept where the neighbour was read too, as an assembly keeps them (pack-neighbours.ts).
    const stored = new Map(
      raw.map((r) => [
        r.id,
        r.ns.flatMap((n) => {
          const id = byOrdinal.get(n.ordinal);
          return id === undefined ? [] : [{ id, sharedM: n.sharedM }];
        }),
      ]),
    );
    const expected = adjacencyOf(shapes).adjacency;
    const pairs = [...expected.values()].reduce((n, l) => n + l.length, 0);
    expect(pairs).toBeGreaterThan(shapes.length);
    expect(listed(stored)).toEqual(listed(expected));
  }, 120_000);
});
