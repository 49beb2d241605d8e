// The baseline of `npm run bench -- site-search`: the same facts as plain JS objects, scanned whole, as a search
// engine without pages, columns or summaries would; also the count every search is held to.
import { type PagedPack, readPlan } from "../../src/packs/paged/index.ts";
import { latOf, lonOf, shareOf, tableFromPage } from "../../src/search/facts-table.ts";
import type { SearchArea, SearchFilters, SearchQuery } from "../../src/search/query.ts";

// One lot as a plain object: the baseline a search engine without pages, columns or summaries would scan.
export type PlainLot = {
  zone: string | null;
  area: number;
  fsr: number;
  height: number;
  minLot: number;
  flood: number;
  bushfire: number;
  heritage: number;
  heritageKind: number;
  stationM: number;
  suburb: string | null;
  lga: string | null;
  x: number;
  y: number;
};

// The same predicate as search/filters.ts, over a plain object.
function plainTest(f: SearchFilters): (l: PlainLot) => boolean {
  const zones = f.zones ? new Set(f.zones) : null;
  const ex = new Set(f.exclude ?? []);
  return (l) =>
    (!zones || (l.zone !== null && zones.has(l.zone))) &&
    l.area >= (f.area_m2?.min ?? -Infinity) &&
    l.area <= (f.area_m2?.max ?? Infinity) &&
    (f.fsr_min === undefined || l.fsr >= f.fsr_min) &&
    (f.height_min_m === undefined || l.height >= f.height_min_m) &&
    (!f.meets_min_lot || !(l.minLot > l.area)) &&
    !(ex.has("flood") && l.flood > 0) &&
    !(ex.has("bushfire") && l.bushfire > 0) &&
    !(ex.has("heritage") && (l.heritage > 0 || l.heritageKind !== 0)) &&
    (f.station_within_m === undefined || l.stationM <= f.station_within_m);
}

function plainArea(a: SearchArea): (l: PlainLot) => boolean {
  if ("lga" in a) return (l) => l.lga === a.lga;
  if ("suburb" in a) return (l) => l.suburb === a.suburb;
  if ("bbox" in a) {
    const b = a.bbox;
    return (l) => l.x >= b[0] && l.x <= b[2] && l.y >= b[1] && l.y <= b[3];
  }
  throw new Error("polygon areas are not in the baseline");
}

// Count plus the largest 100 by area, as the engine answers.
export function plainSearch(lots: readonly PlainLot[], q: SearchQuery): number {
  const inArea = plainArea(q.area);
  const pass = plainTest(q.filters ?? {});
  const hits: PlainLot[] = [];
  for (const l of lots) if (inArea(l) && pass(l)) hits.push(l);
  hits.sort((a, b) => b.area - a.area);
  return hits.length;
}

export async function plainLots(pack: PagedPack): Promise<PlainLot[]> {
  const s = await pack.snapshot();
  const out: PlainLot[] = [];
  for (let from = 0; from < s.root.pageCount; from += 64) {
    const nos = Array.from({ length: Math.min(64, s.root.pageCount - from) }, (_, k) => from + k);
    const set = await readPlan(pack.planPages(s, nos));
    for (const page of set.pages) {
      const t = tableFromPage(s, page);
      for (let i = 0; i < t.count; i++) {
        out.push({
          zone: t.zone.names[t.zone.codes[i] as number] ?? null,
          area: t.area[i] as number,
          fsr: t.fsr[i] as number,
          height: t.height[i] as number,
          minLot: t.minLot[i] as number,
          flood: shareOf(t.flood, i),
          bushfire: shareOf(t.bushfire, i),
          heritage: shareOf(t.heritage, i),
          heritageKind: t.heritageKind[i] as number,
          stationM: t.stationM[i] as number,
          suburb: t.suburb.names[t.suburb.codes[i] as number] ?? null,
          lga: t.lga.names[t.lga.codes[i] as number] ?? null,
          x: lonOf(t, i),
          y: latOf(t, i),
        });
      }
    }
  }
  return out;
}
