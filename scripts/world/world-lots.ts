// A built world read from its file, as the examples' generator and the browser tests need it: every lot of some
// suburbs with the facts that choose them, and the lot (if any) holding a point or bearing an id.
import { featureLabelPoint } from "../../src/geo/label-point.ts";
import { basename } from "node:path";
import {
  type DecodedPage,
  PageCache,
  PagedPack,
  pagePack,
  readPlan,
  type Snapshot,
} from "../../src/packs/paged/index.ts";
import { FileSource } from "../bench/paged/file-source.ts";

export type WorldLot = {
  lotId: string;
  address: string | null;
  suburb: string;
  zone: string | null;
  areaM2: number;
  // The nearest railway, metro or light rail station and how far it is.
  station: string | null;
  stationM: number | null;
  point: [number, number];
};

export type WorldFile = { pack: PagedPack; close(): Promise<void> };

export async function openWorld(path: string): Promise<WorldFile> {
  // The file's name carries its content hash: a root memoised for one world never answers for another.
  const source = await FileSource.open(path, { key: `public/${basename(path)}` });
  return { pack: new PagedPack(source, { cache: new PageCache(16 * 1024 * 1024) }), close: () => source.close() };
}

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Every data page of the world in order, read 16 at a time, with the snapshot it belongs to. */
export async function* pagesOf(world: WorldFile): AsyncGenerator<{ s: Snapshot; page: DecodedPage }> {
  const s = await world.pack.snapshot();
  for (let from = 0; from < s.root.pageCount; from += 16) {
    const nos = Array.from({ length: Math.min(16, s.root.pageCount - from) }, (_, k) => from + k);
    for (const page of (await readPlan(world.pack.planPages(s, nos))).pages) yield { s, page };
  }
}

/** Every lot of these suburbs (all pages read, in page order). */
export async function lotsIn(world: WorldFile, suburbs: ReadonlySet<string>): Promise<WorldLot[]> {
  const out: WorldLot[] = [];
  for await (const { s, page } of pagesOf(world)) {
    const layer = pagePack(s, page).layers.get("parcels");
    if (layer?.kind !== "polygon") continue;
    for (let i = 0; i < layer.count; i++) {
      const p = layer.props(i);
      const suburb = text(p.suburb);
      if (!suburb || !suburbs.has(suburb) || !layer.record) continue;
      const { facts } = layer.record(i);
      out.push({
        lotId: String(p.lot_id),
        address: text(p.address),
        suburb,
        zone: text(p.zone),
        areaM2: facts.areaM2,
        station: facts.nearestStation?.name ?? null,
        stationM: facts.nearestStation?.distanceM ?? null,
        point: featureLabelPoint(layer, i),
      });
    }
  }
  return out;
}

/** The id of the lot holding the point, or null. */
export async function lotIdAt(world: WorldFile, lon: number, lat: number): Promise<string | null> {
  const hit = await world.pack.featuresAt(lon, lat);
  const first = hit.features[0];
  return first ? String(first.properties.lot_id) : null;
}

/** The address of the lot bearing this id ("" when it has none), or null when no lot does. */
export async function addressOf(world: WorldFile, lotId: string): Promise<string | null> {
  const first = (await world.pack.byLotId(lotId)).features[0];
  return first ? (text(first.properties.address) ?? "") : null;
}
