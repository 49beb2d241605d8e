// POST /sites/assemble's work (docs/design.md section 14): the site search's candidates, the lots around them read
// through the packs' readers, the engine's groups, and the answer with each group's outline.
import { UnprocessableError } from "../errors.ts";
import { featureToGeometry } from "../geo/columns.ts";
import type { AreaGeometry } from "../geo/types.ts";
import { type VisiblePacks, wholePacks } from "../packs/open-pack.ts";
import { ReadBudget } from "../packs/paged/index.ts";
import { searchSites } from "../search/engine.ts";
import { cleanFilters } from "../search/filters.ts";
import { MAX_RANGES, MAX_SEARCH_BYTES, MAX_SEARCH_LOTS, type SearchArea, type SearchFilters } from "../search/query.ts";
import { assemblyId, decodeOffset, encodeOffset } from "./cursor.ts";
import { assembleGroups } from "./engine.ts";
import { ASSEMBLY_DEFAULT_LIMIT, ASSEMBLY_MAX_LIMIT, MAX_CANDIDATES } from "../routes/schemas/assemble-limits.ts";
import { packRanks, withoutOutranked } from "./own-lots.ts";
import { readAdjacency } from "./pack-neighbours.ts";
import { lotsAround, type ReadLot } from "./read-lots.ts";
import { unionOf } from "./union.ts";
import type { AssemblySort, AssemblyWork } from "./types.ts";

export type AssembleQuery = {
  area: SearchArea;
  filters?: SearchFilters;
  target: { min_area_m2: number; min_frontage_m?: number; max_lots: number };
  exclude_strata?: boolean;
  sort?: AssemblySort;
  limit?: number;
  cursor?: string | null;
};

export type AssembledGroup = {
  group_id: string;
  lots: (string | null)[];
  area_m2: number;
  frontage_m: number;
  geometry: AreaGeometry;
  zone: string | null;
  owners_count: number;
  isolated: { lot_id: string | null; area_m2: number; frontage_m: number | null; why: string }[];
};

export type AssembleAnswer = { count: number; groups: AssembledGroup[]; next_cursor: string | null };

export type AssembleOutcome = AssembleAnswer & { work: AssemblyWork & { pagesRead: number } };

// Read ranges of the request's 48 the search leaves for the candidates' outlines and surroundings.
const OUTLINE_RANGES = 16;

const r1 = (x: number) => Math.round(x * 10) / 10;
const num = (n: number) => n.toLocaleString("en-AU");

const outlineOf = (m: ReadLot) => featureToGeometry(m.layer, m.index);

/** Adjacency from each pack's neighbours column for its own lots, outlines for the rest ("pack"); or outlines only. */
export type AssembleOptions = { adjacency?: "pack" | "query" };

/** One page of the area's groups, in the order asked; the same errors as the site search. */
export async function assembleSites(
  packs: VisiblePacks,
  q: AssembleQuery,
  opts: AssembleOptions = {},
): Promise<AssembleOutcome> {
  const filters = cleanFilters(q.filters);
  const sort = q.sort ?? "owners";
  const limit = Math.min(ASSEMBLY_MAX_LIMIT, Math.max(1, Math.floor(q.limit ?? ASSEMBLY_DEFAULT_LIMIT)));
  const id = assemblyId({ a: q.area, f: filters, t: q.target, x: q.exclude_strata === true, s: sort });
  const offset = q.cursor ? decodeOffset(id, q.cursor) : 0;
  // One budget for the search and the outlines read after it: a request stays within the subrequests a Worker allows.
  const budget = new ReadBudget({ lots: MAX_SEARCH_LOTS, bytes: MAX_SEARCH_BYTES, ranges: MAX_RANGES });
  const found = await searchSites(
    packs,
    { area: q.area, filters, sort: "area", limit: MAX_CANDIDATES },
    { budget, reserveRanges: OUTLINE_RANGES, stopAbove: MAX_CANDIDATES, maxLimit: MAX_CANDIDATES },
  );
  if (found.stopped) {
    throw new UnprocessableError(
      `More than ${num(MAX_CANDIDATES)} lots of ${found.label} pass these filters, more than one assembly may combine: add a zone, area or station filter, or choose a smaller area`,
      ["body", "area"],
      "area_too_large",
    );
  }
  const around = await lotsAround(found.refs, wholePacks(packs), budget);
  // An organisation's own lot over a public one (or an import over the world) is one neighbour, not two.
  const read = { ...around, lots: withoutOutranked(around.lots, await packRanks(packs)) };
  const byKey = new Map(read.lots.map((l) => [l.lot.id, l]));
  const precomputed = opts.adjacency === "query" ? null : readAdjacency(read.lots);
  // Lot keys carry their pack's id and version (read-lots.ts), so a group id changes with the pack version.
  const result = assembleGroups({
    lots: read.lots.map((l) => l.lot),
    shapes: read.lots.map((l) => l.shape),
    ...(precomputed ?? {}),
    target: {
      minAreaM2: q.target.min_area_m2,
      ...(q.target.min_frontage_m !== undefined ? { minFrontageM: q.target.min_frontage_m } : {}),
      maxLots: q.target.max_lots,
    },
    sort,
    excludeStrata: q.exclude_strata === true,
    packVersion: "",
    offset,
    limit,
  });
  const lotIdOf = (key: string) => byKey.get(key)?.lotId ?? null;
  const groups = result.groups.map(
    (g): AssembledGroup => ({
      group_id: g.groupId,
      lots: g.lots.map(lotIdOf),
      area_m2: r1(g.areaM2),
      frontage_m: r1(g.frontageM),
      geometry: unionOf(g.lots.map((k) => outlineOf(byKey.get(k) as ReadLot))),
      zone: g.zone,
      owners_count: g.ownersCount,
      isolated: g.isolated.map((i) => ({
        lot_id: lotIdOf(i.id),
        area_m2: r1(i.areaM2),
        frontage_m: i.frontageM === null ? null : r1(i.frontageM),
        why: i.why,
      })),
    }),
  );
  const next = offset + groups.length;
  return {
    count: result.count,
    groups,
    next_cursor: next < result.count ? encodeOffset(id, next) : null,
    work: { ...result.work, pagesRead: read.pagesRead },
  };
}
