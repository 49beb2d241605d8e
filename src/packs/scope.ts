// The packs one request works with: v1 and private packs resolved once, v2 pages read per area as the work needs them.
import type { BBox } from "../geo/bbox.ts";
import { NotFoundError } from "../errors.ts";
import { type PackArea, pagesFor } from "./area.ts";
import { packStorage } from "./private-store.ts";
import type { PagedPack } from "./paged/reader.ts";
import type { PackSource } from "./visible.ts";
import type { Pack } from "./types.ts";

export type PackScope = {
  /** Private and public v1 packs (suburbs, stations, small packs): what needs no area. */
  base: Pack[];
  /** The packs the areas need: private first, then public v1, then the v2 pages, all limited to `packId` if named. */
  at(areas: readonly PackArea[]): Promise<Pack[]>;
  /** The public v2 packs in scope, for work that plans its own reads (a site search). */
  paged: readonly PagedPack[];
  /** Titles and boxes of every pack in scope (v2 packs by their root) and whether it holds lots, for "outside every pack". */
  coverage: { title: string; bbox: BBox; parcels: boolean }[];
};

/** Resolves the caller's packs once; a `packId` no pack in scope has is a 404 before any work. */
export async function packScope(source: PackSource, orgId: string | null, packId?: string | null): Promise<PackScope> {
  const [base, paged] = await Promise.all([source.forOrg(orgId), source.paged()]);
  const roots = await packStorage(Promise.all(paged.map((p) => p.snapshot())));
  const keep = <T extends { id: string }>(list: T[]) => (packId ? list.filter((p) => p.id === packId) : list);
  const own = keep(base);
  const pagedIn = paged.filter((_, i) => !packId || roots[i]?.root.meta.id === packId);
  if (packId && own.length === 0 && pagedIn.length === 0) throw new NotFoundError(`Pack not found: ${packId}`);
  const coverage = [
    ...own.map((p) => ({ title: p.meta.title, bbox: p.bbox, parcels: p.layers.has("parcels") })),
    ...roots
      .filter((s) => !packId || s.root.meta.id === packId)
      .map((s) => ({ title: s.root.meta.info.title ?? s.root.meta.id, bbox: s.root.meta.bbox, parcels: true })),
  ];
  return {
    base: own,
    paged: pagedIn,
    coverage,
    async at(areas) {
      const pages = await packStorage(pagesFor(pagedIn, areas));
      return [...own, ...pages];
    },
  };
}

/** A scope over packs already in memory (scripts, tests): every area gets the same packs. */
export function fixedScope(packs: readonly Pack[]): PackScope {
  const list = [...packs];
  return {
    base: list,
    paged: [],
    coverage: list.map((p) => ({ title: p.meta.title, bbox: p.bbox, parcels: p.layers.has("parcels") })),
    at: async () => list,
  };
}
