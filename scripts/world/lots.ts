// A suburb's lots with their facts: the plan and its overlays, then each lot's record computed by the overlay
// kernels (lotRecordFrom) over the suburb's own pack, every centre, the stations and the suburb boundaries.
import { hilbertOf, lotValues, UNITS_PER_DEGREE, type Value } from "../../src/packs/paged/index.ts";
import { parcelFromFeature } from "../../src/packs/spatial.ts";
import type { Pack } from "../../src/packs/types.ts";
import { lotRings, quadsOf, suburbPack } from "./context-packs.ts";
import { lotRecordFrom } from "../../src/assess/lot-record.ts";
import type { WorldContext } from "./context.ts";
import { type Overlays, overlaysOf, zoningRuns } from "./features.ts";
import type { Suburb } from "./inputs.ts";
import { type Extent, type Lot, MAX_CELLS, type Plan, SuburbLayout } from "./plan.ts";
import { addressesOf } from "./streets.ts";
import { existingOf } from "./existing.ts";
import { frontagesOf } from "./frontage.ts";
import type { WalkIndex } from "./walk-index.ts";

const DP_BITS = 23;
const DP_MASK = (1 << DP_BITS) - 1;

// A bijection on 23-bit numbers, so plan numbers look scattered yet stay unique.
function scatter(x: number): number {
  let y = (x * 0x2f5b1 + 0x1d2b3) & DP_MASK;
  y ^= y >>> 11;
  y = (y * 0x6b43f) & DP_MASK;
  y ^= y >>> 9;
  return y;
}

/** A lot's id in NSW form ("12//DP1234567"): one deposited plan per block. */
export function lotIdOf(suburbIndex: number, cell: number, lotNo: number): string {
  return `${lotNo}//DP${100_000 + scatter(suburbIndex * MAX_CELLS + cell)}`;
}

/** A lot's tie-break among equal Hilbert keys: unique across the world. */
export function tieOf(suburbIndex: number, cell: number, lotNo: number): number {
  return (suburbIndex * MAX_CELLS + cell) * 256 + (lotNo - 1);
}

export type CentreQuad = { quad: Int32Array; props: unknown[]; group: string };
export type CellCensus = { urban: number; rest: number; centres: CentreQuad[] };

/** Lots each block would hold built on or left as bushland, and its centre zoning (blocks in rank order). */
export function censusOf(ctx: WorldContext, suburb: Suburb): CellCensus[] {
  const layout = new SuburbLayout(ctx, suburb);
  const { plan } = layout;
  const out: CellCensus[] = new Array(plan.cells.length);
  for (const c of plan.cells) {
    const lots = layout.cellLots(c, "urban");
    const centres = lots.some((l) => SuburbLayout.isCentre(l.zone)) ? zoningRuns(plan, lots).centres : [];
    const quads = quadsOf(plan.frame, centres);
    out[c.rank] = {
      urban: lots.length,
      rest: layout.cellLots(c, "rest").length,
      centres: centres.map((p, i) => ({ quad: quads.slice(8 * i, 8 * i + 8), props: p.props, group: p.group ?? "" })),
    };
  }
  return out;
}

// `rows`: each lot's parcels fields (PARCEL_FIELDS: id, address, frontage on the street, what stands on it).
export type SuburbLots = {
  plan: Plan;
  overlays: Overlays;
  pack: Pack;
  lotIds: string[];
  addresses: (string | null)[];
  rows: unknown[][];
};

/** The suburb built to `extent`; its pack holds the lots as `parcels` in plan order. */
export function suburbLots(ctx: WorldContext, suburb: Suburb, extent: Extent): SuburbLots {
  const plan = new SuburbLayout(ctx, suburb).build(extent);
  const overlays = overlaysOf(ctx, plan);
  const lotIds = plan.lots.map((l) => lotIdOf(suburb.index, l.cell, l.lotNo));
  const addresses = addressesOf(plan);
  const frontages = frontagesOf(plan);
  const rows = plan.lots.map((l, i) => [lotIds[i], addresses[i] ?? null, frontages[i] ?? null, ...existingOf(plan, l)]);
  return { plan, overlays, pack: suburbPack(plan.frame, plan.lots, rows, overlays), lotIds, addresses, rows };
}

export type LotOut = (key: number, tie: number, ring: Int32Array, values: Value[]) => void;

/**
 * Computes every lot's record and hands it on with its Hilbert key over `box`; `centres` is the world's centre
 * zoning, `shared` the stations and suburbs.
 */
export function emitLots(
  built: SuburbLots,
  centres: Pack,
  shared: Pack,
  box: readonly number[],
  out: LotOut,
  walk: WalkIndex | null = null,
): void {
  const { plan, pack } = built;
  const packs = [pack, shared];
  const centreList = [centres];
  const rings = lotRings(plan.frame, plan.lots);
  const b = box as [number, number, number, number];
  plan.lots.forEach((l: Lot, i: number) => {
    const ring = rings.coords.subarray(rings.starts[i], rings.starts[i + 1]);
    // Centre distance searched over the centre zoning alone: the suburb's other zoning holds no E1, E2 or MU1.
    const parcel = parcelFromFeature(pack, i);
    const record = lotRecordFrom(packs, parcel, centreList);
    // The walks to the nearest Schedule 11 station and town centre, from the lot's centroid over the streets.
    const reach = walk?.reachFrom(parcel.centroid[0], parcel.centroid[1]) ?? null;
    if (reach !== null) record.facts.reach = reach;
    const values = lotValues(record);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let k = 0; k < ring.length; k += 2) {
      minX = Math.min(minX, ring[k] as number);
      maxX = Math.max(maxX, ring[k] as number);
      minY = Math.min(minY, ring[k + 1] as number);
      maxY = Math.max(maxY, ring[k + 1] as number);
    }
    const key = hilbertOf((minX + maxX) / 2 / UNITS_PER_DEGREE, (minY + maxY) / 2 / UNITS_PER_DEGREE, b);
    out(key, tieOf(plan.suburb.index, l.cell, l.lotNo), ring, values);
  });
}
