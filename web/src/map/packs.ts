// The packs the map draws, each with its TileJSON, so the map is styled with complete sources.
import type { Api, PackSummary, TileJson } from "../api.ts";

export type { TileJson };
/** A pack whose `tilejson` is missing only where fetching it failed: the map then fetches it itself. */
export type MapPack = PackSummary;

/**
 * GET /packs, whose public packs carry their TileJSON (docs/design.md section 9); any other pack's is fetched, all at
 * once, and one that fails falls back to the map fetching it.
 */
export async function loadMapPacks(api: Api): Promise<MapPack[]> {
  const packs = await api.get<PackSummary[]>("/packs");
  return Promise.all(
    packs.map(async (p) => ({
      ...p,
      tilejson:
        p.tilejson ?? (await api.get<TileJson>(`/tiles/${encodeURIComponent(p.id)}.json`).catch(() => undefined)),
    })),
  );
}
