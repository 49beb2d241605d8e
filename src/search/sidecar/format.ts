// The search sidecar's layout (issue 53): a JSON head (identity, dictionaries, page map, block directory with
// per-block min/max and code sets), then blocks of bit-packed columns, each block 4,096 lots sorted by (main zone, pack
// order), each lot naming its row in the pack.
import { crc32 } from "../../packs/crc32.ts";
import { type Root, runAt } from "../../packs/paged/index.ts";

export const SIDECAR_MAGIC = 0x31435347; // "GSC1", little-endian
// 2: the value figures a search sorted by value prices (issue 54), in a region of their own after the blocks; a sidecar
// of 1 is refused, and search reads pages. 3: each block's best lot per sort (`best`) and its zones' least station
// distances (`zoneNear`). 4: rows sorted by (main zone, pack order), each with its pack row (`row`) and each block its
// pages (`pages`), so a zone's lots fill few blocks (docs/design.md section 10). A sidecar of 2 or 3 (pack order, no `row`
// column) is refused: search reads the pages until it is rebuilt, as the bench, pack script and world publish do.
export const SIDECAR_VERSION = 4;
/** The versions a reader accepts. */
export const SIDECAR_READABLE: readonly number[] = [4];
/** The columns a search sorts by (but value), in the order of a block's `best`. */
export const SORT_COLUMNS = ["area", "fsr", "height", "stationM"] as const;
export const BLOCK_ROWS = 4096;

/** How a column's values are coded: an int as is, a float32 scaled to an int, or a float32's sortable bits. */
export const INT = 0;
export const SCALED = 1;
export const BITS = 2;
/** Mostly zeros: a bitmap of the lots with a value, then those values packed (`scale` holds how many). */
export const SPARSE = 3;

/**
 * The columns, in block order: the facts a search filters, sorts and places a lot by, and its rank by lot key (what
 * only an answer shows, the station's name, the demo flag, ids and addresses, is read from the results' pages).
 */
export const COLUMNS = [
  "area",
  "fsr",
  "height",
  "minLot",
  "stationM",
  "x",
  "y",
  "flood",
  "bushfire",
  "heritage",
  "heritageKind",
  "zone",
  "suburb",
  "lga",
  "rank",
  // The lot's row in the pack (its page and index there): the sidecar's rows are in another order.
  "row",
  // The price-independent figures of a lot's value (src/search/value-figures.ts): codes, then whole numbers.
  "basis",
  "dwellings",
  "gfa",
  "existingKind",
  "existingDwellings",
  "existingUnits",
  "existingFloor",
] as const;
export type ColumnName = (typeof COLUMNS)[number];
export const FLOAT_COLUMNS: readonly ColumnName[] = [
  "area",
  "fsr",
  "height",
  "minLot",
  "stationM",
  "x",
  "y",
  "dwellings",
  "gfa",
  "existingUnits",
  "existingFloor",
];
export const col = (name: ColumnName): number => COLUMNS.indexOf(name);
/** Where the value figures start among the columns (they are the last ones). */
export const FIRST_VALUE_COLUMN = COLUMNS.indexOf("basis");
/** The columns a search sorted by value reads, beside a lot's place, area and suburb. */
export const VALUE_COLUMNS: readonly ColumnName[] = COLUMNS.slice(FIRST_VALUE_COLUMN);

/** One column of one block: [kind, scale, base, width, hasNone]. */
export type ColumnCode = [number, number, number, number, number];

export type BlockEntry = {
  /** Byte offset (from the blocks' start) and length of its columns but the value figures. */
  o: number;
  n: number;
  /**
   * The same for its value figures (VALUE_COLUMNS, the last columns): kept after every block's other columns, so a
   * search not sorted by value never reads them, and one sorted by value reads them as a second range.
   */
  vo: number;
  vn: number;
  /** First row (the sidecar's order: main zone, then pack order) and rows. */
  first: number;
  rows: number;
  /** The pages holding its lots, as runs [first page, pages, first page, pages, ...] in page order. */
  pages: number[];
  c: ColumnCode[];
  /** Least and greatest value of each column (null when every value is none). */
  lo: (number | null)[];
  hi: (number | null)[];
  /** Codes present of zone, suburb and LGA. */
  zones: number[];
  /**
   * Per code of `zones`, the least station distance of its lots (null: none has one), so a search for
   * zones near a station skips a block whose lots of those zones are all too far, though other lots are near.
   */
  zoneNear: (number | null)[];
  suburbs: number[];
  lgas: number[];
  /** The lots' label points' box [W, S, E, N]. */
  box: [number, number, number, number];
  /**
   * Per SORT_COLUMNS, the place of the block's first lot in that sort's order (src/search/order.ts): its value (null:
   * none) and rank: the bound a first page prunes unread blocks by.
   */
  best: [number | null, number][];
};

export type SidecarHead = {
  v: number;
  packId: string;
  /** The pack version it was built from (packIdentity): a sidecar of another version is never used. */
  identity: string;
  rows: number;
  /** First row of each page, pageCount + 1 entries. */
  pageStarts: number[];
  /** Each page's frame origin in degrees [x0, y0, ...]: a lot's point is its origin plus its float32 offset. */
  frames: number[];
  dicts: { zone: string[]; suburb: string[]; lga: string[] };
  /** COLUMNS as written, so a reader refuses a sidecar of other columns. */
  columns: string[];
  blocks: BlockEntry[];
};

/** A pack version's identity from its root: id, version and every page's checksum. */
export function packIdentity(root: Root): string {
  const crcs = new Uint8Array(root.pageCrcs.buffer, root.pageCrcs.byteOffset, root.pageCrcs.byteLength);
  return `${root.meta.id}|${root.meta.version}|${root.pageCount}|${crc32(crcs).toString(16)}`;
}

/** The page holding pack row `row`: the last page starting at or before it (`pageStarts` as the head holds them). */
export const pageOfRow = (pageStarts: readonly number[], row: number): number => runAt(pageStarts, row);
