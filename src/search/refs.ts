// A search result's lot as a decoded pack feature, for callers that draw or score it (the chat's tools).
import { refuseDamaged } from "../packs/request-pages.ts";
import {
  type DecodedPage,
  type PagedPack,
  pagePack,
  type ReadBudget,
  readPlan,
  refuseOver,
  type Snapshot,
} from "../packs/paged/index.ts";
import type { Pack } from "../packs/types.ts";
import type { SiteRef } from "./engine.ts";

// A scan keeps no pages (tables only): the results' pages are read again, all of one pack's in one plan.
async function pagesOf(
  paged: PagedPack,
  s: Snapshot,
  nos: readonly number[],
  budget: ReadBudget,
): Promise<Map<number, DecodedPage>> {
  const plan = paged.planPages(s, nos, budget);
  refuseOver(plan);
  const set = await readPlan(plan);
  refuseDamaged(set.refused);
  return new Map(set.pages.map((p) => [p.no, p]));
}

/**
 * The pack (a v2 page seen as a small pack) and feature index of each ref, read within what the search left of the
 * request's budget; pages come from the isolate's cache when they can.
 */
export async function refFeatures(
  refs: readonly SiteRef[],
  budget: ReadBudget,
): Promise<{ pack: Pack; index: number }[]> {
  const wanted = new Map<PagedPack, { s: Snapshot; nos: number[] }>();
  for (const ref of refs) {
    if ("pack" in ref) continue;
    const w = wanted.get(ref.paged) ?? { s: ref.snapshot, nos: [] };
    w.nos.push(ref.page);
    wanted.set(ref.paged, w);
  }
  const read = new Map<PagedPack, Map<number, DecodedPage>>();
  await Promise.all([...wanted].map(async ([paged, w]) => read.set(paged, await pagesOf(paged, w.s, w.nos, budget))));
  return refs.map((ref) => {
    if ("pack" in ref) return { pack: ref.pack, index: ref.index };
    const page = read.get(ref.paged)?.get(ref.page);
    if (!page) throw new Error(`pack ${ref.snapshot.key}: page ${ref.page} was not read`);
    return { pack: pagePack(ref.snapshot, page), index: ref.index };
  });
}
