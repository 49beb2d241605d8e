// Which sidecar blocks a search reads: a block is skipped when its code sets, box or min/max prove no lot of it is in
// the area, or (when the search may skip by filters) that none passes them.
import { type BBox, bboxIntersects } from "../../geo/bbox.ts";
import type { SearchFilters } from "../query.ts";
import type { ResolvedArea } from "../search-area.ts";
import { type BlockEntry, col, type SidecarHead } from "./format.ts";

/** A test of blocks for one search over one sidecar: codes named by the area and filters are found once. */
export function blockTest(
  head: SidecarHead,
  area: ResolvedArea,
  f: SearchFilters,
  byFilters: boolean,
): (e: BlockEntry) => boolean {
  const named = area.needs.named;
  const areaCodes = named
    ? new Set(head.dicts[named.column].flatMap((name, k) => (named.keyOf(name) === named.key ? [k + 1] : [])))
    : null;
  const zoneCodes = f.zones
    ? new Set(head.dicts.zone.flatMap((name, k) => (f.zones?.includes(name.toUpperCase()) ? [k + 1] : [])))
    : null;
  const box: BBox = area.bbox;
  const hi = (e: BlockEntry, c: string) => e.hi[col(c as "area")] ?? null;
  const lo = (e: BlockEntry, c: string) => e.lo[col(c as "area")] ?? null;
  const ex = new Set(f.exclude ?? []);
  return (e) => {
    if (area.needs.inBox && !bboxIntersects(e.box, box)) return false;
    if (areaCodes) {
      const have = named?.column === "lga" ? e.lgas : e.suburbs;
      if (!have.some((k) => areaCodes.has(k))) return false;
    }
    if (!byFilters) return true;
    if (zoneCodes && !e.zones.some((k) => zoneCodes.has(k))) return false;
    // None passes a bound when every value is none (NaN fails every comparison) or the block's extreme falls short.
    const under = (c: string, need: number | undefined) => {
      if (need === undefined) return false;
      const m = hi(e, c);
      return m === null || m < need;
    };
    const over = (c: string, limit: number | undefined) => {
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
