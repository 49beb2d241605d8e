// The packs the world publishes for its map: the streets pack (named streets, bus stops marked synthetic) beside the
// lots pack, whose low zooms are its street blocks; every lot's nearest stop is measured to those same stops.
import { describe, expect, it } from "vitest";
import { lotRecord } from "../../../src/packs/paged/lot-columns.ts";
import { clearRootMemo, openPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { wholePackOfBytes } from "../../../src/packs/paged/whole-pack.ts";
import { WORLD_STREETS_ID } from "../../../scripts/world/meta.ts";
import { ZONE_CODES } from "../../../scripts/world/zones.ts";
import { packLots, smallPacks, smallWorld, worldMap } from "./small-world.ts";

const SUBURBS = ["Parramatta", "Harris Park", "Rosehill"];
const LOTS = 3000;
const packs = await smallPacks(SUBURBS, LOTS);
const map = worldMap(smallWorld(SUBURBS, LOTS));

describe("the world's streets pack", () => {
  const streets = wholePackOfBytes(packs.streets, "streets.pack");

  it("holds the named streets as a line layer and the bus stops as transport points, all marked synthetic", () => {
    expect(streets.id).toBe(WORLD_STREETS_ID);
    const lines = streets.layers.get("streets");
    const stops = streets.layers.get("transport");
    expect(lines?.kind).toBe("line");
    expect(lines?.synthetic).toBe(true);
    expect(lines?.count).toBe(map.streets.length);
    expect(stops?.kind).toBe("point");
    expect(stops?.synthetic).toBe(true);
    expect(stops?.count).toBe(map.stops.length);
    const names = new Set(Array.from({ length: lines?.count ?? 0 }, (_, i) => String(lines?.props(i).name)));
    expect(names).toEqual(new Set(map.streets.map((s) => s.name)));
    for (let i = 0; i < (stops?.count ?? 0); i++) {
      const p = stops?.props(i);
      expect([p?.mode, p?.synthetic]).toEqual(["bus", true]);
    }
  });

  it("is what the lots' nearest stops were measured to: a lot's bus stop is one of the pack's, no nearer one drawn", async () => {
    const records = (await packLots(packs.lots)).map((h) => lotRecord((name) => h.properties[name] ?? null));
    const byName = new Map(map.stops.map((s) => [s.name, s]));
    const bus = records.filter((r) => r.facts.nearestStop?.mode === "bus");
    expect(bus.length).toBeGreaterThan(records.length / 2);
    for (const r of bus) expect(byName.has(r.facts.nearestStop?.name ?? "")).toBe(true);
  });
});

describe("the world's lots pack", () => {
  it("stores its street blocks as its overview: one quad a built block, each in a zone", async () => {
    clearRootMemo();
    const pack = await openPack(new MemorySource(`world-${Math.random()}`, packs.lots), { log: () => {} });
    const s = await pack.snapshot();
    expect(s.root.meta.overview?.kind).toBe("blocks");
    const { blocks, pages, zones, refused } = await pack.overviewFor(s.root.meta.bbox);
    expect(refused).toEqual([]);
    expect(pages).toEqual([]);
    expect(blocks.reduce((n, p) => n + p.count, 0)).toBe(map.blocks.zones.length);
    const got = blocks.flatMap((p) => Array.from(p.zones, (z) => zones[z] as string)).sort();
    expect(got).toEqual([...map.blocks.zones].sort());
    for (const z of got) expect(ZONE_CODES as readonly string[]).toContain(z);
  });
});
