// An organisation's own lot lying over a public one is one neighbour, not two (issue 55): the public lot whose label
// point lies in the own lot is dropped from the lots an assembly reads, candidates kept.
import { describe, expect, it } from "vitest";
import { adjacencyOf } from "../../../src/assemble/adjacency.ts";
import { withoutOutranked } from "../../../src/assemble/own-lots.ts";
import { type ReadLot, ringsOf } from "../../../src/assemble/read-lots.ts";
import { chargedView, encodePack, MemorySource, PagedPack, readPlan } from "../../../src/packs/paged/index.ts";
import { OWN_RANK } from "../../../src/packs/precedence.ts";
import { PARCELS } from "../../../src/packs/spatial.ts";
import type { Layer } from "../../../src/packs/types.ts";
import { type DrawnLot, rectShape } from "./blocks.ts";

// Each drawn lot of a one-page pack, read back as an assembly reads it.
async function readPack(id: string, drawn: readonly DrawnLot[], candidates: readonly string[]): Promise<ReadLot[]> {
  const bytes = await encodePack(
    drawn.map((d) => ({
      geometry: { type: "Polygon", coordinates: rectShape(d.id, d.box).rings.map((r) => r.map(([x, y]) => [x, y])) },
      values: [d.id],
    })),
    { id, version: "1", columns: [{ name: "lot_id", type: "text" }], lotIdColumn: "lot_id" },
  );
  const paged = new PagedPack(new MemorySource(`test/${id}.pack`, bytes));
  const s = await paged.snapshot();
  const [page] = (await readPlan(paged.planPages(s, [0]))).pages;
  if (!page) throw new Error("no page");
  const layer = chargedView(paged, s, page).layers.get(PARCELS) as Layer;
  return Array.from({ length: page.count }, (_, i) => {
    const name = String(layer.props(i).lot_id);
    const key = `${id}@1/${name}`;
    return {
      pack: `${id}@1`,
      lot: {
        id: key,
        name,
        areaM2: 600,
        frontageM: 15,
        zone: "R3",
        strata: false,
        units: null,
        candidate: candidates.includes(name),
      },
      shape: { id: key, rings: ringsOf(layer, i) },
      lotId: name,
      layer,
      index: i,
    };
  });
}

const ROW: DrawnLot[] = ["A", "B", "C"].map((id, k) => ({ id, box: [15 * k, 0, 15 * k + 15, 40] }));

describe("own lots among an assembly's neighbours", () => {
  it("a public lot under the organisation's own lot is dropped, so A's neighbour B is counted once", async () => {
    const world = await readPack("world", ROW, ["A"]);
    // The organisation's survey of B: the same lot, a few centimetres off.
    const own = await readPack("mine", [{ id: "B-own", box: [15.02, 0, 30.01, 40] }], []);
    const ranks = new Map([
      ["world@1", 0],
      ["mine@1", OWN_RANK],
    ]);
    const kept = withoutOutranked([...world, ...own], ranks);
    expect(kept.map((l) => l.lotId)).toEqual(["A", "C", "B-own"]);
    const { adjacency } = adjacencyOf(kept.map((l) => l.shape));
    expect(adjacency.get("world@1/A")?.map((n) => n.id)).toEqual(["mine@1/B-own"]);
    // Without the rule, A would have had B twice: the public lot and the organisation's.
    const both = adjacencyOf([...world, ...own].map((l) => l.shape)).adjacency;
    expect(
      both
        .get("world@1/A")
        ?.map((n) => n.id)
        .sort(),
    ).toEqual(["mine@1/B-own", "world@1/B"]);
  });

  it("keeps a candidate, and keeps every lot when one pack is read", async () => {
    const world = await readPack("world2", ROW, ["A", "B"]);
    const own = await readPack("mine2", [{ id: "B-own", box: [15, 0, 30, 40] }], []);
    const ranks = new Map([
      ["world2@1", 0],
      ["mine2@1", OWN_RANK],
    ]);
    expect(withoutOutranked([...world, ...own], ranks).map((l) => l.lotId)).toEqual(["A", "B", "C", "B-own"]);
    expect(withoutOutranked(world, ranks).map((l) => l.lotId)).toEqual(["A", "B", "C"]);
  });
});
