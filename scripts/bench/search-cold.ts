// A cold site search as issue 53 defines it, shared by the timed run (search.ts) and the memory child
// (search-peak-child.ts): a fresh reader, no root memoised, an empty page cache, no facts tables, no sidecar blocks.
import { openPacks } from "../../src/packs/open-pack.ts";
import {
  clearRootMemo,
  HEADER_BYTES,
  headBytesOf,
  PageCache,
  PagedPack,
  pagedObjectMetadata,
  type Source,
} from "../../src/packs/paged/index.ts";
import type { Pack } from "../../src/packs/types.ts";
import { type SearchOutcome, searchSites } from "../../src/search/engine.ts";
import type { SearchQuery } from "../../src/search/query.ts";
import { attachSidecar } from "../../src/search/sidecar/registry.ts";
import { clearSearchTables } from "../../src/search/tables.ts";

// The header and root's length, as the object's R2 metadata gives it to the registry (src/packs/registry.ts).
async function headBytesOfSource(source: Source): Promise<number | undefined> {
  const head = (await source.getBytes(0, HEADER_BYTES)).data;
  return headBytesOf(pagedObjectMetadata(head, source.key));
}

/** A fresh reader of `source` in an isolate with nothing cached; with `side`, its search sidecar attached. */
export async function coldPack(source: Source, side?: Source): Promise<PagedPack> {
  const headBytes = await headBytesOfSource(source);
  clearSearchTables();
  clearRootMemo();
  const pack = new PagedPack(source, { cache: new PageCache(), headBytes });
  if (side) attachSidecar(pack, side);
  return pack;
}

/** The search over `base` and the cold pack, by its sidecar when one is attached. */
export function coldSearch(
  base: readonly Pack[],
  pack: PagedPack,
  q: SearchQuery,
  bySidecar: boolean,
): Promise<SearchOutcome> {
  return searchSites(openPacks([...base, pack]), q, { sidecar: bySidecar });
}
