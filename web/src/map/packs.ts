// The packs the map draws, each with its TileJSON fetched up front, so the map is styled with complete sources.
import type { Api, PackSummary, TileJson } from "../api.ts";

export type { TileJson };
export type MapPack = PackSummary & { tilejson: TileJson | null };

/** GET /packs, then every pack's TileJSON at once; a pack whose TileJSON fails falls back to the map fetching it. */
export async function loadMapPacks(api: Api): Promise<MapPack[]> {
  const packs = await api.get<PackSummary[]>("/packs");
  return Promise.all(
    packs.map(async (p) => ({
      ...p,
      tilejson: await api.get<TileJson>(`/tiles/${encodeURIComponent(p.id)}.json`).catch(() => null),
    })),
  );
}
