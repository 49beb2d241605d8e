// A small synthetic cadastre and overlays on disk, and how to read every lot of a v2 pack back as its record.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cadastreExtent, writeSyntheticCadastre } from "../../../../scripts/pack/stream/synthetic-cadastre.ts";
import { writeSyntheticOverlays } from "../../../../scripts/pack/stream/synthetic-overlays.ts";
import { LOT_COLUMNS, type LotRecord, lotRecord, lotValues } from "../../../../src/packs/paged/lot-columns.ts";
import { PageCache } from "../../../../src/packs/paged/page-cache.ts";
import { openPack } from "../../../../src/packs/paged/reader.ts";
import type { Value } from "../../../../src/packs/paged/schema.ts";
import { MemorySource } from "../../../../src/packs/paged/source.ts";

export type Inputs = { dir: string; parcels: string; overlays: Record<string, string>; lots: number };

/** `lots` synthetic lots (about 1 KB each, as the NSW export) and the nine overlay layers over them. */
export function writeInputs(lots: number, seed = 3): Inputs {
  const dir = mkdtempSync(join(tmpdir(), "stream-test-"));
  const parcels = join(dir, "cadastre.geojson");
  const c = writeSyntheticCadastre(parcels, { lots, seed });
  const overlays = writeSyntheticOverlays(dir, cadastreExtent(lots), seed);
  return { dir, parcels, overlays, lots: c.lots };
}

let n = 0;
/** Every lot of a v2 lots pack as read by the v2 reader, by lot id. */
export async function recordsOf(bytes: Uint8Array): Promise<Map<string, LotRecord>> {
  const pack = await openPack(new MemorySource(`stream-test-${n++}.pack`, bytes), {
    cache: new PageCache(),
    log: () => {},
  });
  const { features, refused } = await pack.featuresInBox([-180, -90, 180, 90]);
  if (refused.length > 0) throw new Error(`pages refused: ${JSON.stringify(refused)}`);
  const out = new Map<string, LotRecord>();
  for (const f of features) {
    const id = f.properties.lot_id;
    if (typeof id !== "string" || out.has(id)) throw new Error(`lot id ${String(id)} missing or repeated`);
    out.set(
      id,
      lotRecord((name) => f.properties[name] ?? null),
    );
  }
  return out;
}

/** A record as a lots pack stores it: each number at its column's precision (fixed-point steps, float32). */
export function asStored(r: LotRecord): LotRecord {
  const values = lotValues(r);
  const stored = new Map<string, Value>();
  LOT_COLUMNS.forEach((c, i) => {
    const v = values[i] ?? null;
    stored.set(
      c.name,
      typeof v !== "number"
        ? v
        : c.type === "f32"
          ? Math.fround(v)
          : c.type === "dict" || c.type === "text"
            ? v
            : Math.round(v * (c.scale ?? 1)) / (c.scale ?? 1),
    );
  });
  return lotRecord((name) => stored.get(name) ?? null);
}
