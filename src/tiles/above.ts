// The public packs that outrank a tile's pack (docs/design.md section 10), whose lots hide its lots under theirs, and
// the tag their content adds to the tile's ETag, cache key and URL.
import type { VisiblePacks } from "../packs/open-pack.ts";
import type { PagedPack } from "../packs/paged/index.ts";
import { packsAbove as rankedAbove, rankedPaged } from "../packs/precedence.ts";
import { coverTag } from "./cover.ts";

export type Above = { packs: PagedPack[]; tag: string };

const NONE: Above = { packs: [], tag: "" };

/** The packs of `publicPacks` above `pack`, highest first; none for a pack held whole or an organisation's own. */
export async function packsAbove(publicPacks: VisiblePacks | null, pack: PagedPack | undefined): Promise<Above> {
  if (publicPacks === null || pack === undefined) return NONE;
  const above = rankedAbove(await rankedPaged(publicPacks), pack);
  if (above.length === 0) return NONE;
  const checksums: number[] = [];
  for (const r of above) checksums.push((await r.pack.snapshot()).header.rootCrc);
  return { packs: above.map((r) => r.pack), tag: coverTag(checksums) };
}
