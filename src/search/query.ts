// What a site search asks and answers (docs/design.md section 11), independent of HTTP.
import type { BBox } from "../geo/bbox.ts";
import type { PolygonGeometry } from "../geo/types.ts";
import type { EXCLUDABLE } from "../routes/schemas/limits.ts";
import type { SITE_SORTS } from "../routes/schemas/sites.ts";
import type { Assumptions } from "../value/assumptions.ts";

export type SearchArea = { suburb: string } | { lga: string } | { bbox: BBox } | { polygon: PolygonGeometry };

export type Excludable = (typeof EXCLUDABLE)[number];

export type SearchFilters = {
  zones?: string[];
  area_m2?: { min?: number; max?: number };
  fsr_min?: number;
  height_min_m?: number;
  meets_min_lot?: boolean;
  exclude?: Excludable[];
  station_within_m?: number;
};

export type SearchSort = (typeof SITE_SORTS)[number];

/** The caller's valuation assumptions and their version: what a value sort prices lots on (docs/design.md section 13). */
export type SearchAssumptions = Assumptions & { version: number };

export type SearchQuery = {
  area: SearchArea;
  filters?: SearchFilters;
  sort?: SearchSort;
  limit?: number;
  cursor?: string | null;
  /** Needed by sort "value" alone; its results carry no value figures (those a score is paid for). */
  assumptions?: SearchAssumptions;
};

// A search's work budget (docs/design.md section 11), judged from the packs' roots before any page is read.
export const MAX_SEARCH_LOTS = 5_000_000;
export const MAX_SEARCH_BYTES = 48 * 1024 * 1024;
// A search yields to the event loop at least this often, so other requests on the isolate interleave with it.
export const YIELD_EVERY_LOTS = 20_000;
// Workers allow a request about 50 subrequests: a search reads at most this many byte ranges.
export const MAX_RANGES = 48;
// Of those, what a chat's search leaves for reading its results' pages again (up to 100 lots, merged into few reads).
export const RESULT_RANGES = 8;

export type SiteResult = {
  pack_id: string;
  lot_id: string | null;
  center: [number, number];
  area_m2: number;
  zone: string | null;
  fsr: number | null;
  height_m: number | null;
  min_lot_m2: number | null;
  overlays: { flood: number; bushfire: number; heritage: number };
  station: { name: string; distance_m: number } | null;
  address: string | null;
  suburb: string | null;
  lga: string | null;
  demo_data: boolean;
};

export type SearchAnswer = {
  count: number;
  results: SiteResult[];
  next_cursor: string | null;
  bbox: BBox;
};

/** What a search cost, for benchmarks and logs. */
export type SearchWork = {
  pagesInArea: number;
  pagesSkipped: number;
  pagesRead: number;
  /** Search sidecar blocks read (docs/design.md section 11: the facts search tests, read in place of pages). */
  blocksRead: number;
  /** Blocks whose every lot passes, counted from their headers and never read (docs/design.md section 11). */
  blocksCounted: number;
  ranges: number;
  bytesRead: number;
  lotsTested: number;
  /** Polygon edges tested (a drawn area only). */
  edgesTested: number;
  /** Times the search yielded to the event loop, and the most lots it tested between two yields. */
  yields: number;
  mostLotsBetweenYields: number;
};
