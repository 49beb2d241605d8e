// The one door into the paged (v2) packs: every file outside this folder imports them from here (the architecture
// test holds this). Readers ask for pages, lots and tiles and plan reads through the reader, never from offsets.

// Reading: the reader, what it answers, and the read budget its plans are judged against.
export {
  clearRootMemo,
  forgetRoot,
  type LotAt,
  openPack,
  type PagePlan,
  PagedPack,
  type RefusedPage,
  refuseOver,
  type Snapshot,
} from "./reader.ts";
export { type LandedPages, readPlan, readPlans } from "./plan-reads.ts";
export { ReadBudget } from "./read-budget.ts";
export { runAt } from "./starts.ts";
export { isolatePageCache, PageCache } from "./page-cache.ts";

// Where bytes come from, and how a pack's objects are told apart in a listing.
export { MemorySource, R2Source, type RangeResult, type Source } from "./source.ts";
export { headBytesOf, isPagedObject, pagedObjectMetadata } from "./object-meta.ts";

// Refusals: each a 503 naming the pack.
export { EtagMismatchError, PackNotFoundError, PagedPackError, PageRefusedError } from "./errors.ts";

// Pages as their readers see them: decoded columns, a page as a small v1 pack, the root's per-page summaries.
export type { DecodedPage, PageColumn, PageColumns } from "./page.ts";
export { pageValue, searchPage } from "./page.ts";
export { chargedView, chargeView, pagePack, PROP_COLUMNS } from "./page-pack.ts";
export { pageHasZone, type Root, tileKey } from "./root.ts";
export { CELLS_PER_DEGREE, type OverviewPage } from "./overview.ts";
export type { BlockPage, Blocks } from "./block-overview.ts";

// The lots layer's columns and the record a lot's facts are read into.
export {
  HERITAGE_AREA,
  HERITAGE_ITEM,
  LOT_COLUMNS,
  LOT_ID_COLUMN,
  LOT_SUMMARY,
  type LotRecord,
  lotColumn,
  lotValues,
} from "./lot-columns.ts";

// The format's constants and the schema types a caller holds.
export {
  type ColumnSpec,
  FORMAT_VERSION as PAGED_VERSION,
  HEADER_BYTES,
  lotIdHash,
  NULL_INT,
  PAGE_HEADER_BYTES,
  readHeader,
  type StoredTilesMeta,
  UNITS_PER_DEGREE,
  type Value,
} from "./schema.ts";

// Building: the encoder, and the pieces a streamed build or a stored-tiles pass writes with.
export { encodePack, type FeatureInput, lotKey, type PackOptions, PackWriter } from "./encode.ts";
// Which lots adjoin (issue 55): the one kernel, for an assembly at query time and a lots pack's build.
export {
  adjacentPairs,
  type Box as OutlineBox,
  boxesMeet,
  MAX_NEAR,
  MIN_SHARED_M,
  nearBox,
  outlineBox,
  pairSharedM,
  sharedLengthM,
} from "./adjacency.ts";
// A lots pack's precomputed adjacency (issue 55): the column, its coding and each page's first ordinal.
export {
  decodeNeighbours,
  encodeNeighbours,
  firstOrdinals,
  NEIGHBOURS_COLUMN,
  type NeighbourBuild,
  type OutlineRings,
  neighbourValues,
  type NeighbourTable,
  neighbourTable,
  neighbourValuesOf,
  type PackNeighbour,
  pageRings,
} from "./neighbours.ts";
export { pageNeighbours } from "./page-neighbours.ts";
export { headLength, headWithTiles, rewriteHead } from "./rehead.ts";
export type { IndexEntry } from "./root.ts";
export { encodeIndexPage, INDEX_PAGE_ENTRIES } from "./lot-index.ts";
export { CountTable, type KeyCounts } from "./count-table.ts";
export { hilbertOf } from "./hilbert.ts";

// Packs of layers of any kind (root `layers`): the encoder, a field's column type, the root's layers and metadata.
export { encodeLayers, type LayerSource } from "./encode-layers.ts";
export type { FeatureGeometry } from "./feature-geometry.ts";
export { inferColumn } from "./infer-columns.ts";
export { MAX_COLUMNS } from "./root-schema.ts";
export { type LayerMeta, packMetaOf } from "./schema.ts";
export { type ColumnarLayer, type ColumnarPack, columnarOf, encodeColumnar } from "./columnar-layers.ts";

// A small pack of layers read whole into one Pack (what v1 packs were when decoded).
export {
  joinLayers,
  readsWhole,
  readWhole,
  WHOLE_PACK_MAX_BYTES,
  wholePack,
  wholePackOfBytes,
} from "./whole-pack.ts";
