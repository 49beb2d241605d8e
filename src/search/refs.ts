// A search result's lot as a decoded pack feature, for callers that draw or score it (the chat's tools).
import { refuseDamaged } from "../packs/area.ts";
import { pagePack } from "../packs/paged/page-pack.ts";
import type { Pack } from "../packs/types.ts";
import type { SiteRef } from "./engine.ts";

/** The pack (a v2 page seen as a small pack) and feature index of each ref; pages come from the isolate's cache when they can. */
export async function refFeatures(refs: readonly SiteRef[]): Promise<{ pack: Pack; index: number }[]> {
  return Promise.all(
    refs.map(async (ref) => {
      if ("pack" in ref) return { pack: ref.pack, index: ref.index };
      const set = await ref.paged.pagesNumbered(ref.snapshot, [ref.page], 0);
      refuseDamaged(set.refused);
      const page = set.pages[0];
      if (!page) throw new Error(`pack ${ref.snapshot.key}: page ${ref.page} was not read`);
      return { pack: pagePack(ref.snapshot, page), index: ref.index };
    }),
  );
}
