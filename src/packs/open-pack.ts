// The one list every feature reads packs from: each pack held whole (a gazetteer, transport, an upload's layers) or
// read by range (lots), the organisation's first, so the first pack holding a point answers and own data wins.
import { PagedPack, type Snapshot } from "./paged/index.ts";
import type { Pack } from "./types.ts";

/** One pack a request may read; `own`: the caller's organisation's. */
export type OpenPack = { readonly own: boolean } & (
  | { readonly whole: Pack; readonly paged?: undefined }
  | { readonly paged: PagedPack; readonly whole?: undefined }
);

/** Every pack a request may read, the organisation's first. */
export type VisiblePacks = readonly OpenPack[];

/** The list of `packs` as given, each whole or paged by its kind (scripts and tests build theirs this way). */
export function openPacks(packs: readonly (Pack | PagedPack)[], own = false): OpenPack[] {
  return packs.map((p) => (p instanceof PagedPack ? { own, paged: p } : { own, whole: p }));
}

/** The packs held whole, in list order; with `own`, only the organisation's (true) or only public ones (false). */
export function wholePacks(v: VisiblePacks, own?: boolean): Pack[] {
  return v.flatMap((p) => (p.whole && (own === undefined || p.own === own) ? [p.whole] : []));
}

/** The packs read by range, in list order; with `own`, only the organisation's (true) or only public ones (false). */
export function pagedPacks(v: VisiblePacks, own?: boolean): PagedPack[] {
  return v.flatMap((p) => (p.paged && (own === undefined || p.own === own) ? [p.paged] : []));
}

/** A pack's id: a whole pack's own, a paged pack's from its root (read now if this isolate has not). */
export async function idOf(p: OpenPack): Promise<string> {
  return p.whole ? p.whole.id : (await p.paged.snapshot()).root.meta.id;
}

/** A pack found by id: a paged one with the root it was found by. */
export type FoundPack = { readonly own: boolean } & (
  | { readonly whole: Pack; readonly paged?: undefined; readonly snapshot?: undefined }
  | { readonly paged: PagedPack; readonly snapshot: Snapshot; readonly whole?: undefined }
);

/** The first pack of `v` named `id`, or null. */
export async function findPack(v: VisiblePacks, id: string): Promise<FoundPack | null> {
  for (const p of v) {
    if (p.whole) {
      if (p.whole.id === id) return p;
      continue;
    }
    const snapshot = await p.paged.snapshot();
    if (snapshot.root.meta.id === id) return { own: p.own, paged: p.paged, snapshot };
  }
  return null;
}
