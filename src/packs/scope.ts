// The packs one request works with: v1 and private packs resolved once, v2 pages read per area as the work needs them.
import type { BBox } from "../geo/bbox.ts";
import { NotFoundError } from "../errors.ts";
import type { PackArea } from "./request-pages.ts";
import { packStorage } from "./private/store.ts";
import type { PagedPack } from "./paged/index.ts";
import { joinVisible, type PackSource } from "./visible.ts";
import type { Pack } from "./types.ts";

export type PackScope = {
  /** Private and public v1 packs (suburbs, stations, small packs): what needs no area. */
  base: Pack[];
  /**
   * The packs the areas need, all limited to `packId` if named: the organisation's v1 packs, the pages of its v2
   * packs, public v1 packs, then public v2 pages (private first: the first pack holding a point answers).
   */
  at(areas: readonly PackArea[]): Promise<Pack[]>;
  /** The v2 packs in scope, the organisation's first, for work that plans its own reads (a site search). */
  paged: readonly PagedPack[];
  /** Those of `paged` that are the organisation's (uploaded lots): a search reads them first, to stand in for public lots. */
  ownPaged: readonly PagedPack[];
  /** Titles and boxes of every pack in scope (v2 packs by their root) and whether it holds lots, for "outside every pack". */
  coverage: { title: string; bbox: BBox; parcels: boolean }[];
};

/** Resolves the caller's packs once; a `packId` no pack in scope has is a 404 before any work. */
export async function packScope(source: PackSource, orgId: string | null, packId?: string | null): Promise<PackScope> {
  const v = await source.visible(orgId);
  const allPaged = [...v.ownPaged, ...v.paged];
  const roots = await packStorage(Promise.all(allPaged.map((p) => p.snapshot())));
  const keep = <T extends { id: string }>(list: T[]) => (packId ? list.filter((p) => p.id === packId) : list);
  const inScope = (p: PagedPack) => !packId || roots[allPaged.indexOf(p)]?.root.meta.id === packId;
  const scoped = {
    own: keep(v.own),
    ownPaged: v.ownPaged.filter(inScope),
    packs: keep(v.packs),
    paged: v.paged.filter(inScope),
  };
  const base = [...scoped.own, ...scoped.packs];
  const pagedIn = [...scoped.ownPaged, ...scoped.paged];
  if (packId && base.length === 0 && pagedIn.length === 0) throw new NotFoundError(`Pack not found: ${packId}`);
  const coverage = [
    ...base.map((p) => ({ title: p.meta.title, bbox: p.bbox, parcels: p.layers.has("parcels") })),
    ...roots
      .filter((s) => !packId || s.root.meta.id === packId)
      .map((s) => ({ title: s.root.meta.info.title ?? s.root.meta.id, bbox: s.root.meta.bbox, parcels: true })),
  ];
  return {
    base,
    paged: pagedIn,
    ownPaged: scoped.ownPaged,
    coverage,
    at: (areas) => joinVisible(scoped, areas),
  };
}

/** A scope over packs already in memory (scripts, tests): every area gets the same packs. */
export function fixedScope(packs: readonly Pack[]): PackScope {
  const list = [...packs];
  return {
    base: list,
    paged: [],
    ownPaged: [],
    coverage: list.map((p) => ({ title: p.meta.title, bbox: p.bbox, parcels: p.layers.has("parcels") })),
    at: async () => list,
  };
}
