// A pack's TileJSON as GET /tiles/{pack_id}.json answers it; GET /packs gives public packs' inline (docs/design.md section 9).
import { type FoundPack, findPack, type VisiblePacks } from "../packs/open-pack.ts";
import { packsAbove } from "../tiles/above.ts";
import { pagedTileJson } from "../tiles/paged.ts";
import { tileJson } from "../tiles/tilejson.ts";
import type { TileJson } from "./schemas/tiles.ts";

/** `publicPacks`: the public packs, whose higher-ranked ones name a public paged pack's tile URL too (above.ts). */
export async function tileJsonOf(
  found: FoundPack,
  origin: string,
  publicPacks: () => Promise<VisiblePacks>,
): Promise<TileJson> {
  if (found.whole) return tileJson(found.whole, origin);
  // The tile URL names the packs above this one too: a new import is never hidden by a browser's cached tiles.
  const { tag } = await packsAbove(found.own ? null : await publicPacks(), found.paged);
  return pagedTileJson(found.snapshot, origin, tag);
}

/**
 * GET /packs's list, each public pack with its TileJSON: a map asks for its first tiles with no other round trip (issue
 * 51, item 7). Without `publicPacks` (one could not be opened) the list is as it was.
 */
export async function withTileJson<S extends { id: string; private: boolean }>(
  summaries: readonly S[],
  publicPacks: VisiblePacks | null,
  origin: string,
): Promise<(S & { tilejson?: TileJson })[]> {
  return Promise.all(
    summaries.map(async (s) => {
      const found = s.private || !publicPacks ? null : await findPack(publicPacks, s.id);
      return found ? { ...s, tilejson: await tileJsonOf(found, origin, async () => publicPacks ?? []) } : s;
    }),
  );
}
