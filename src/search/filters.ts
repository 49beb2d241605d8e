// A search's filters: per lot over a facts table, and per page over the root's summaries (to skip unread pages).
import { pageHasZone, type Root } from "../packs/paged/index.ts";
import type { FactsTable } from "./facts-table.ts";
import type { SearchFilters } from "./query.ts";

/** Filters with zone codes upper-cased and deduplicated, empty parts dropped. */
export function cleanFilters(f: SearchFilters = {}): SearchFilters {
  const out: SearchFilters = {};
  if (f.zones && f.zones.length > 0) out.zones = [...new Set(f.zones.map((z) => z.trim().toUpperCase()))].sort();
  if (f.area_m2 && (f.area_m2.min !== undefined || f.area_m2.max !== undefined)) {
    out.area_m2 = {
      ...(f.area_m2.min !== undefined ? { min: f.area_m2.min } : {}),
      ...(f.area_m2.max !== undefined ? { max: f.area_m2.max } : {}),
    };
  }
  if (f.fsr_min !== undefined) out.fsr_min = f.fsr_min;
  if (f.height_min_m !== undefined) out.height_min_m = f.height_min_m;
  if (f.meets_min_lot) out.meets_min_lot = true;
  if (f.exclude && f.exclude.length > 0) out.exclude = [...new Set(f.exclude)].sort();
  if (f.station_within_m !== undefined) out.station_within_m = f.station_within_m;
  return out;
}

/** The per-lot test of the filters for one table. */
export function lotTest(f: SearchFilters, t: FactsTable): (i: number) => boolean {
  const zoneOk = f.zones ? new Uint8Array(t.zone.names.length) : null;
  if (zoneOk && f.zones) {
    const want = new Set(f.zones);
    t.zone.names.forEach((n, k) => {
      if (n !== null && want.has(n.toUpperCase())) zoneOk[k] = 1;
    });
  }
  const min = f.area_m2?.min ?? -Infinity;
  const max = f.area_m2?.max ?? Infinity;
  const ex = new Set(f.exclude ?? []);
  const station = f.station_within_m;
  // NaN (no value) fails every comparison: a lot without an FSR does not pass "FSR at least 1".
  return (i) => {
    if (zoneOk && zoneOk[t.zone.codes[i] as number] !== 1) return false;
    const area = t.area[i] as number;
    if (area < min || area > max) return false;
    if (f.fsr_min !== undefined && !((t.fsr[i] as number) >= f.fsr_min)) return false;
    if (f.height_min_m !== undefined && !((t.height[i] as number) >= f.height_min_m)) return false;
    // No minimum lot size over the lot leaves nothing to meet.
    if (f.meets_min_lot && (t.minLot[i] as number) > area) return false;
    if (ex.has("flood") && (t.flood[i] as number) > 0) return false;
    if (ex.has("bushfire") && (t.bushfire[i] as number) > 0) return false;
    if (ex.has("heritage") && ((t.heritage[i] as number) > 0 || t.heritageKind[i] !== 0)) return false;
    if (station !== undefined && !((t.stationM[i] as number) <= station)) return false;
    return true;
  };
}

/** False when the root's summaries prove no lot of page `no` can match, so the page is never read. */
export function pageMayMatch(f: SearchFilters, root: Root, no: number): boolean {
  const { summary, zoneDict } = root.meta;
  if (f.zones && summary.zone !== null) {
    const codes = f.zones.map((z) => zoneDict.indexOf(z)).filter((k) => k >= 0);
    if (!codes.some((k) => pageHasZone(root, no, k))) return false;
  }
  const maxOf = (column: string): number => {
    const m = summary.max.indexOf(column);
    const v = m < 0 ? Number.NaN : (root.pageMax[m]?.[no] ?? Number.NaN);
    return Number.isNaN(v) ? Infinity : v;
  };
  // float32 maxima round: a page is skipped only when even a rounded-up maximum falls short.
  const short = (column: string, need: number | undefined) => need !== undefined && maxOf(column) * (1 + 1e-6) < need;
  if (short("area_m2", f.area_m2?.min)) return false;
  if (short("fsr", f.fsr_min)) return false;
  if (short("height_m", f.height_min_m)) return false;
  return true;
}
