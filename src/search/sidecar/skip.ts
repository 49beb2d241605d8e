// Which sidecar blocks a search reads: a block is skipped when its code sets, box or min/max prove no lot of it is in
// the area, or (when the search may skip by filters) that none passes them.
import { type BBox, bboxIntersects } from "../../geo/bbox.ts";
import type { SearchFilters } from "../query.ts";
import type { ResolvedArea } from "../search-area.ts";
import { type BlockEntry, col, type ColumnName, type SidecarHead } from "./format.ts";

const hi = (e: BlockEntry, c: ColumnName) => e.hi[col(c)] ?? null;
const lo = (e: BlockEntry, c: ColumnName) => e.lo[col(c)] ?? null;
/** True when some lot of the block has no value in column `c` (its coding's none flag). */
export const hasNone = (e: BlockEntry, c: ColumnName) => (e.c[col(c)]?.[4] ?? 1) === 1 || lo(e, c) === null;

// The dictionary codes the area names and the zones the filters name, found once per search.
function codesOf(head: SidecarHead, area: ResolvedArea, f: SearchFilters) {
  const named = area.needs.named;
  const areaCodes = named
    ? new Set(head.dicts[named.column].flatMap((name, k) => (named.keyOf(name) === named.key ? [k + 1] : [])))
    : null;
  const zoneCodes = f.zones
    ? new Set(head.dicts.zone.flatMap((name, k) => (f.zones?.includes(name.toUpperCase()) ? [k + 1] : [])))
    : null;
  return { named, areaCodes, zoneCodes };
}

/** A test of blocks for one search over one sidecar: codes named by the area and filters are found once. */
export function blockTest(
  head: SidecarHead,
  area: ResolvedArea,
  f: SearchFilters,
  byFilters: boolean,
): (e: BlockEntry) => boolean {
  const { named, areaCodes, zoneCodes } = codesOf(head, area, f);
  const box: BBox = area.bbox;
  const ex = new Set(f.exclude ?? []);
  return (e) => {
    if (area.needs.inBox && !bboxIntersects(e.box, box)) return false;
    if (areaCodes) {
      const have = named?.column === "lga" ? e.lgas : e.suburbs;
      if (!have.some((k) => areaCodes.has(k))) return false;
    }
    if (!byFilters) return true;
    if (zoneCodes && !e.zones.some((k) => zoneCodes.has(k))) return false;
    // Near a station: some lot of a wanted zone must be near enough (a lot without a distance is never near).
    const limit = f.station_within_m;
    const near = e.zoneNear;
    if (zoneCodes && limit !== undefined) {
      if (!e.zones.some((k, j) => zoneCodes.has(k) && (near[j] ?? Infinity) <= limit)) return false;
    }
    // None passes a bound when every value is none (NaN fails every comparison) or the block's extreme falls short.
    const under = (c: ColumnName, need: number | undefined) => {
      if (need === undefined) return false;
      const m = hi(e, c);
      return m === null || m < need;
    };
    const over = (c: ColumnName, limit: number | undefined) => {
      if (limit === undefined) return false;
      const m = lo(e, c);
      return m === null || m > limit;
    };
    // A lot without an area passes the area bounds (NaN is neither below nor above): only a block of areas is skipped.
    const areas = (e.c[col("area")]?.[4] ?? 1) === 0;
    if (areas && (under("area", f.area_m2?.min) || over("area", f.area_m2?.max))) return false;
    if (under("fsr", f.fsr_min) || under("height", f.height_min_m)) return false;
    if (over("stationM", f.station_within_m)) return false;
    if (ex.has("flood") && (lo(e, "flood") ?? 0) > 0) return false;
    if (ex.has("bushfire") && (lo(e, "bushfire") ?? 0) > 0) return false;
    return true;
  };
}

/**
 * A test of blocks whose every lot is counted without reading it (docs/design.md section 11): its pages are all ones
 * the page path reads (`pages`), its box and names put each lot in the area, and its min/max and code sets prove each
 * passes the filters exactly as the per-lot test would (src/search/filters.ts). False whenever a header cannot tell.
 */
export function wholeTest(
  head: SidecarHead,
  area: ResolvedArea,
  f: SearchFilters,
  pages: Uint8Array,
): (e: BlockEntry) => boolean {
  const { zoneCodes } = codesOf(head, area, f);
  const inArea = wholeInArea(head, area, f, pages);
  const ex = new Set(f.exclude ?? []);
  const allAtLeast = (e: BlockEntry, c: ColumnName, need: number | undefined) =>
    need === undefined || (!hasNone(e, c) && (lo(e, c) as number) >= need);
  const noneAbove = (e: BlockEntry, c: ColumnName) => (hi(e, c) ?? 0) <= 0;
  return (e) => {
    if (!inArea(e)) return false;
    if (zoneCodes && !allIn(e, "zone", e.zones, zoneCodes)) return false;
    // A lot without an area passes the area bounds: only the areas it has are bounded.
    const aLo = lo(e, "area");
    const aHi = hi(e, "area");
    if (aLo !== null && aHi !== null && (aLo < (f.area_m2?.min ?? -Infinity) || aHi > (f.area_m2?.max ?? Infinity)))
      return false;
    if (!allAtLeast(e, "fsr", f.fsr_min) || !allAtLeast(e, "height", f.height_min_m)) return false;
    // A lot fails only when its minimum lot size exceeds its area: never when the largest minimum is within the least area.
    if (f.meets_min_lot) {
      const m = hi(e, "minLot");
      if (m !== null && aLo !== null && m > aLo) return false;
    }
    if (ex.has("flood") && !noneAbove(e, "flood")) return false;
    if (ex.has("bushfire") && !noneAbove(e, "bushfire")) return false;
    if (ex.has("heritage") && (!noneAbove(e, "heritage") || !noneAbove(e, "heritageKind"))) return false;
    const station = f.station_within_m;
    if (station !== undefined && (hasNone(e, "stationM") || (hi(e, "stationM") as number) > station)) return false;
    return true;
  };
}

// Every code present is wanted, and no lot lacks one (code 0, whose least value would be 0).
const allIn = (e: BlockEntry, c: ColumnName, have: number[], want: Set<number>) =>
  (lo(e, c) ?? 0) >= 1 && have.every((k) => want.has(k));

/**
 * A test of blocks whose every lot is in the area as the page path finds it: its pages are all ones the page path
 * reads (`pages`), and its box and names put each lot in the area. False whenever a header cannot tell.
 */
export function wholeInArea(
  head: SidecarHead,
  area: ResolvedArea,
  f: SearchFilters,
  pages: Uint8Array,
): (e: BlockEntry) => boolean {
  if (!area.needs.exact) return () => false;
  const { named, areaCodes } = codesOf(head, area, f);
  const box = area.bbox;
  return (e) => {
    if (!pagesAllRead(e, pages)) return false;
    if (area.needs.inBox && !(e.box[0] >= box[0] && e.box[2] <= box[2] && e.box[1] >= box[1] && e.box[3] <= box[3]))
      return false;
    return !(named && areaCodes && !allIn(e, named.column, named.column === "lga" ? e.lgas : e.suburbs, areaCodes));
  };
}

// True when every page holding lots of the block is one the page path reads (so each of its lots is counted there).
function pagesAllRead(e: BlockEntry, pages: Uint8Array): boolean {
  for (let k = 0; k < e.pages.length; k += 2) {
    const from = e.pages[k] as number;
    for (let p = from; p < from + (e.pages[k + 1] as number); p++) if (pages[p] !== 1) return false;
  }
  return true;
}
