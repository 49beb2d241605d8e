// The packs one request works with: resolved once, the pages of v2 packs read per area as the work needs them.
import type { BBox } from "../geo/bbox.ts";
import { NotFoundError } from "../errors.ts";
import { idOf, openPacks, type VisiblePacks } from "./open-pack.ts";
import type { PackArea } from "./request-pages.ts";
import { packStorage } from "./private/store.ts";
import { joinVisible, type PackSource } from "./visible.ts";
import type { Pack } from "./types.ts";

export type PackScope = {
  /** Every pack in scope (all limited to `packId` if named), the organisation's first. */
  visible: VisiblePacks;
  /** The packs the areas need: each pack of `visible` whole, or the pages of it they need (the first holding a point answers). */
  at(areas: readonly PackArea[]): Promise<Pack[]>;
  /** Titles and boxes of every pack in scope (v2 packs by their root) and whether it holds lots, for "outside every pack". */
  coverage: { title: string; bbox: BBox; parcels: boolean }[];
};

/** Resolves the caller's packs once; a `packId` no pack in scope has is a 404 before any work. */
export async function packScope(source: PackSource, orgId: string | null, packId?: string | null): Promise<PackScope> {
  const all = await source.visible(orgId);
  const ids = await packStorage(Promise.all(all.map(idOf)));
  const visible = packId ? all.filter((_, k) => ids[k] === packId) : all;
  if (packId && visible.length === 0) throw new NotFoundError(`Pack not found: ${packId}`);
  const coverage = await packStorage(
    Promise.all(
      visible.map(async (p) => {
        if (p.whole) return { title: p.whole.meta.title, bbox: p.whole.bbox, parcels: p.whole.layers.has("parcels") };
        const { root } = await p.paged.snapshot();
        return { title: root.meta.info.title ?? root.meta.id, bbox: root.meta.bbox, parcels: true };
      }),
    ),
  );
  return { visible, coverage, at: (areas) => joinVisible(visible, areas) };
}

/** A scope over packs already in memory (scripts, tests): every area gets the same packs. */
export function fixedScope(packs: readonly Pack[]): PackScope {
  const list = [...packs];
  const coverage = list.map((p) => ({ title: p.meta.title, bbox: p.bbox, parcels: p.layers.has("parcels") }));
  return { visible: openPacks(list), coverage, at: async () => list };
}
