// What a map of the world draws besides its lots, per suburb: its named streets, its bus stops and its blocks, in
// degrees. Built from the same plan the lots come from, before the lots' facts (which measure to these stops).
import { UNITS_PER_DEGREE } from "../../src/packs/paged/index.ts";
import { blocksOf } from "./blocks.ts";
import { busStops } from "./bus-stops.ts";
import { quadsOf } from "./context-packs.ts";
import type { WorldContext } from "./context.ts";
import type { Suburb } from "./inputs.ts";
import { at } from "./lattice.ts";
import { type Extent, type Plan, SuburbLayout } from "./plan.ts";
import { onStreet, streetGrid, type StreetGrid, streetPath } from "./street-lines.ts";
import type { ZoneCode } from "./zones.ts";

/** A named stretch of street: each part a line of points, [lon, lat, lon, lat, ...] (a bent street turns at its crossings). */
export type StreetFeature = { name: string; suburb: string; parts: number[][] };
/** A bus stop: made up, so marked synthetic where it is stored. */
export type StopFeature = { name: string; stopId: string; lon: number; lat: number };
/** Blocks as integer quads (8 numbers each, 1e-7 degree, as the lots' corners) and the zone of each. */
export type BlockFeatures = { quads: Int32Array; zones: ZoneCode[] };

/** A stretch of street as the walking graph takes it: its points in order (lon, lat pairs), every crossing a point. */
export type WalkLine = { suburb: number; coords: number[] };

// `lots`: how many lots the plan holds (open land joined over streets makes fewer than its blocks' census says).
export type SuburbMap = {
  streets: StreetFeature[];
  stops: StopFeature[];
  blocks: BlockFeatures;
  walks: WalkLine[];
  lots: number;
};

/** The map features of a built plan. */
export function mapOfPlan(plan: Plan): SuburbMap {
  const { frame, suburb } = plan;
  const deg = (u: number, v: number): [number, number] => {
    const [x, y] = at(frame, u, v);
    return [x / UNITS_PER_DEGREE, y / UNITS_PER_DEGREE];
  };
  const grid = streetGrid(plan);
  const streets = grid.streets.map((s) => ({
    name: s.name,
    suburb: suburb.name,
    parts: s.parts.map(([a, b]) => streetPath(grid, s, a, b).flatMap(([u, v]) => deg(u, v))),
  }));
  const stops = busStops(grid).map((s, i) => {
    const [lon, lat] = deg(s.u, s.v);
    return { name: s.near ? `${s.street} near ${s.near}` : s.street, stopId: `bus-${suburb.index}-${i + 1}`, lon, lat };
  });
  const blocks = blocksOf(plan);
  const walks = walkLines(grid).map((line) => ({
    suburb: suburb.index,
    coords: line.flatMap(([u, v]) => deg(u, v)),
  }));
  const quads = quadsOf(frame, blocks);
  return { streets, stops, blocks: { quads, zones: blocks.map((b) => b.zone) }, walks, lots: plan.lots.length };
}

// Each built stretch of street with a point at every street crossing it and every turn (the plan's frame, metres).
function walkLines(grid: StreetGrid): [number, number][][] {
  const streets = grid.streets;
  const rows = streets.filter((s) => s.dir === "row");
  const crosses = streets.filter((s) => s.dir === "cross");
  const within = (x: number, [a, b]: [number, number]) => x >= a - 1e-9 && x <= b + 1e-9;
  const out: [number, number][][] = [];
  for (const s of streets) {
    const others = s.dir === "row" ? crosses : rows;
    for (const part of s.parts) {
      const cuts = new Set<number>([part[0], part[1]]);
      for (const o of others) {
        if (within(o.at, part) && o.parts.some((q) => within(s.at, q))) cuts.add(o.at);
      }
      const along = [...cuts].sort((x, y) => x - y);
      // The turns between crossings as points too, so the walk follows the bent street.
      const turns = streetPath(grid, s, part[0], part[1]).map(([u, v]) => (s.dir === "row" ? u : v));
      out.push([...new Set([...along, ...turns])].sort((x, y) => x - y).map((x) => onStreet(s, x)));
    }
  }
  return out;
}

/** The suburb built to `extent`, as the lots phase builds it, and its map features. */
export function suburbMap(ctx: WorldContext, suburb: Suburb, extent: Extent): SuburbMap {
  return mapOfPlan(new SuburbLayout(ctx, suburb).build(extent));
}

/** The suburbs' maps joined (in the order given). */
export function joinMaps(maps: readonly SuburbMap[]): SuburbMap {
  const quads = new Int32Array(maps.reduce((n, m) => n + m.blocks.quads.length, 0));
  let at = 0;
  for (const m of maps) {
    quads.set(m.blocks.quads, at);
    at += m.blocks.quads.length;
  }
  return {
    streets: maps.flatMap((m) => m.streets),
    stops: maps.flatMap((m) => m.stops),
    blocks: { quads, zones: maps.flatMap((m) => m.blocks.zones) },
    walks: maps.flatMap((m) => m.walks),
    lots: maps.reduce((n, m) => n + m.lots, 0),
  };
}
