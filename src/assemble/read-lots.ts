// The lots an assembly works on, read through the packs' readers: the search's candidates and every lot within
// NEAR_M of one (their neighbours, and the lots those could still join), with outlines for adjacency.
//
// A lot of a pack built with the neighbours column carries its neighbours by ordinal (pack-neighbours.ts); others are
// compared by their outlines at query time.
import Flatbush from "flatbush";
import { lotRecordFrom } from "../assess/lot-record.ts";
import { type BBox, featureBBox } from "../geo/bbox.ts";
import { degreesForMeters } from "../geo/distance.ts";
import { featureAreaM2 } from "../geo/geodesic-area.ts";
import type { Columns } from "../geo/types.ts";
import { UnprocessableError } from "../errors.ts";
import {
  chargedView,
  type DecodedPage,
  type PackNeighbour,
  type PagedPack,
  pageNeighbours,
  type ReadBudget,
  readPlan,
  type Snapshot,
} from "../packs/paged/index.ts";
import { refuseDamaged } from "../packs/request-pages.ts";
import { PARCELS, parcelFromFeature } from "../packs/spatial.ts";
import type { Layer, Pack } from "../packs/types.ts";
import type { SiteRef } from "../search/engine.ts";
import type { AssemblyLot, LotShape, Ring } from "./types.ts";

/** Lots within this many metres of a candidate's box are read too: its neighbours and theirs (lots run 10 to 40 m). */
export const NEAR_M = 60;

/**
 * One lot read: its engine record, its outline, and where it came from (to answer with its lot id); a lot of a paged
 * pack its place in the pack (`${pack}#ordinal`) and, where the pack stores them, its neighbours by ordinal.
 */
export type ReadLot = {
  /** Its pack, as `${id}@${version}`. */
  pack: string;
  lot: AssemblyLot;
  shape: LotShape;
  lotId: string | null;
  layer: Layer;
  index: number;
  at?: { ordinal: number; neighbours: PackNeighbour[] | null };
};

export type LotsRead = { lots: ReadLot[]; versions: string[]; pagesRead: number };

/** Lot `i`'s rings as the layer holds them (a page's: quantised to 1e-7 degree). */
export function ringsOf(c: Columns, i: number): Ring[] {
  const rings: Ring[] = [];
  const p0 = c.featureOffsets[i] as number;
  const p1 = c.featureOffsets[i + 1] as number;
  for (let r = c.polyOffsets[p0] as number; r < (c.polyOffsets[p1] as number); r++) {
    const ring: [number, number][] = [];
    for (let v = c.ringOffsets[r] as number; v < (c.ringOffsets[r + 1] as number); v++)
      ring.push([c.coords[2 * v] as number, c.coords[2 * v + 1] as number]);
    rings.push(ring);
  }
  return rings;
}

function pad(b: BBox, m: number): BBox {
  const { dLon, dLat } = degreesForMeters(m, b[1]);
  return [b[0] - dLon, b[1] - dLat, b[2] + dLon, b[3] + dLat];
}

/** A lot's key in an assembly: its pack's id and version and its lot id, so a group id changes with the pack version. */
export const assemblyKey = (pack: Pack, lotId: string): string => `${pack.id}@${pack.version}/${lotId}`;

// A lot of `pack`, keyed by pack version and lot id (or its place in the pack): an upload may repeat a public id.
export function readLot(pack: Pack, index: number, key: string, candidate: boolean, context: readonly Pack[]): ReadLot {
  const layer = pack.layers.get(PARCELS) as Layer;
  // A lots pack stores the record; a v1 pack's lot is measured against the packs' overlays, as its search table is
  // (only then is the whole hit, with its outline as GeoJSON, built: thousands of lots are read at once).
  const stored = layer.record?.(index);
  const r = stored ?? lotRecordFrom(context, parcelFromFeature(pack, index));
  const id = layer.props(index).lot_id;
  const lotId = typeof id === "string" ? id : null;
  let rings: Ring[] | null = null;
  const existing = r.facts.existing ?? null;
  const strata = existing !== null && (existing.kind === "strata" || existing.strataPlan !== null);
  return {
    pack: `${pack.id}@${pack.version}`,
    lot: {
      id: key,
      ...(lotId !== null ? { name: lotId } : {}),
      areaM2: r.facts.areaM2 > 0 ? r.facts.areaM2 : featureAreaM2(layer, index),
      frontageM: r.place.frontageM,
      zone: r.facts.zones[0]?.code ?? null,
      strata,
      units: existing?.units ?? null,
      candidate,
    },
    // Measured only where the packs store no adjacency (pack-neighbours.ts), so read only when asked for.
    shape: {
      id: key,
      get rings() {
        rings ??= ringsOf(layer, index);
        return rings;
      },
    },
    lotId,
    layer,
    index,
  };
}

// A pack's lots to take: a whole pack (page 0), or one page of a paged pack with the page itself.
type View = { pack: Pack; page: number; decoded?: { s: Snapshot; page: DecodedPage } };

const tooLarge = (why: string) => new UnprocessableError(why, ["body", "area"], "area_too_large");

/**
 * The candidates (the search's refs) and the lots near them, within what the search left of the request's budget:
 * a v2 pack's candidate pages first, then the pages their surroundings reach into.
 */
export async function lotsAround(
  refs: readonly SiteRef[],
  context: readonly Pack[],
  budget: ReadBudget,
): Promise<LotsRead> {
  const out = new Map<string, ReadLot>();
  const versions = new Set<string>();
  let pagesRead = 0;
  const keyOf = (pack: Pack, page: number, index: number, layer: Layer) => {
    const id = layer.props(index).lot_id;
    return assemblyKey(pack, typeof id === "string" && id !== "" ? id : `#${page}:${index}`);
  };
  // Every lot of `packs` (views of pages, or a whole pack) whose box meets one of `near`, candidates marked.
  const take = (views: readonly View[], near: readonly BBox[], candidates: Set<string>) => {
    if (near.length === 0) return;
    // The boxes indexed, so each view (a page) visits only those meeting it, in their order.
    const boxes = new Flatbush(near.length);
    for (const b of near) boxes.add(b[0], b[1], b[2], b[3]);
    boxes.finish();
    for (const { pack, page, decoded } of views) {
      const layer = pack.layers.get(PARCELS);
      if (layer?.kind !== "polygon" || !layer.index) continue;
      versions.add(`${pack.id}@${pack.version}`);
      // Each lot of the view once, when a box first reaches it: a street's candidates reach the same lots many times.
      const seen = new Uint8Array(layer.count);
      const [w, s, e, n] = pack.bbox;
      for (const k of boxes.search(w, s, e, n).sort((x, y) => x - y)) {
        const b = near[k] as BBox;
        for (const i of layer.index.search(b[0], b[1], b[2], b[3])) {
          if (seen[i] === 1) continue;
          seen[i] = 1;
          const key = keyOf(pack, page, i, layer);
          const have = out.get(key);
          if (have && (have.lot.candidate || !candidates.has(key))) continue;
          const lot = readLot(pack, i, key, candidates.has(key), context);
          if (decoded) lot.at = pageNeighbours(decoded.s, decoded.page, i);
          out.set(key, lot);
        }
      }
    }
  };

  // Packs held whole: candidates by index, their surroundings from the same pack.
  const wholeRefs = new Map<Pack, number[]>();
  const pagedRefs = new Map<PagedPack, { s: Snapshot; nos: Map<number, number[]> }>();
  for (const ref of refs) {
    if ("pack" in ref) {
      const list = wholeRefs.get(ref.pack) ?? [];
      list.push(ref.index);
      wholeRefs.set(ref.pack, list);
    } else {
      const w = pagedRefs.get(ref.paged) ?? { s: ref.snapshot, nos: new Map<number, number[]>() };
      const list = w.nos.get(ref.page) ?? [];
      list.push(ref.index);
      w.nos.set(ref.page, list);
      pagedRefs.set(ref.paged, w);
    }
  }
  for (const [pack, indexes] of wholeRefs) {
    const layer = pack.layers.get(PARCELS) as Layer;
    const candidates = new Set(indexes.map((i) => keyOf(pack, 0, i, layer)));
    take(
      [{ pack, page: 0 }],
      indexes.map((i) => pad(featureBBox(layer, i), NEAR_M)),
      candidates,
    );
  }

  for (const [paged, { s, nos }] of pagedRefs) {
    const read = async (pages: number[]) => {
      const plan = paged.planPages(s, pages, budget);
      if (plan.over !== null) {
        throw tooLarge(
          `Assembling here needs more ${plan.over} of pack ${s.root.meta.id} than one request may read: choose a smaller area or add a zone filter`,
        );
      }
      const set = await readPlan(plan, { keep: false });
      refuseDamaged(set.refused);
      pagesRead += set.pages.length;
      return set.pages.map(
        (page): View => ({ pack: chargedView(paged, s, page), page: page.no, decoded: { s, page } }),
      );
    };
    const candidateViews = await read([...nos.keys()].sort((a, b) => a - b));
    const near: BBox[] = [];
    const candidates = new Set<string>();
    for (const v of candidateViews) {
      const layer = v.pack.layers.get(PARCELS) as Layer;
      for (const i of nos.get(v.page) ?? []) {
        candidates.add(keyOf(v.pack, v.page, i, layer));
        near.push(pad(featureBBox(layer, i), NEAR_M));
      }
    }
    // Pages the candidates' surroundings reach into that hold no candidate: read once more, within the budget.
    const more = new Set<number>();
    for (const b of near) for (const no of paged.pagesInBox(s, b)) if (!nos.has(no)) more.add(no);
    const moreViews = more.size > 0 ? await read([...more].sort((a, b) => a - b)) : [];
    take([...candidateViews, ...moreViews], near, candidates);
  }
  return { lots: [...out.values()], versions: [...versions].sort(), pagesRead };
}
