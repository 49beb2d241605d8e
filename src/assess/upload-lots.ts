// An organisation's uploaded lots as a v2 lots pack (docs/design.md section 10), each lot's facts precomputed at upload.
//
// Which wins, per lot: the overlay kernels over what the organisation sees at upload (its own overlay packs first,
// then public v1 packs) give the facts; where they give the lot no zone, the public v2 lot holding the uploaded lot's
// label point lends its planning facts (zones with shares, controls, flood/bushfire and heritage, suburb/LGA, nearest
// stop/station, centre distance), each overlay fact that was found still winning over the lent one. Lot id, area,
// frontage and address always come from the upload itself.
import { columnsFromGeometry } from "../geo/columns.ts";
import { featureLabelPoint } from "../geo/label-point.ts";
import { refuseDamaged } from "../packs/request-pages.ts";
import {
  chargedView,
  encodePack,
  type FeatureInput,
  LOT_COLUMNS,
  LOT_ID_COLUMN,
  LOT_SUMMARY,
  type LotRecord,
  lotValues,
  NEIGHBOURS_COLUMN,
  neighbourValues,
  type PagedPack,
  type Value,
} from "../packs/paged/index.ts";
import { withStoredTiles } from "../tiles/prebuilt-tiles.ts";
import { PARCELS, parcelFromFeature } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import type { UploadLotsContext, UploadLotsInfo } from "../packs/upload/lots-encoder.ts";
import type { AreaGeometry } from "../geo/types.ts";
import { nextTask } from "../lib/next-task.ts";
import { UnprocessableError } from "../errors.ts";
import { ClipBudgetError, clipWork, withClipBudget } from "../geo/clip-pass.ts";
import { lotRecordFrom } from "./lot-record.ts";
import { withReserveFrontage } from "./upload-frontage.ts";
import type { Reach } from "../scoring/types.ts";

/** Lots whose facts are computed between two yields to the event loop (in the request and in a build step). */
export const YIELD_EVERY_LOTS = 250;
/**
 * Points one lot's overlaps may clip (a few hundred milliseconds): natural outlines of 50,000 vertices take a fraction
 * of it, while one winding through every overlay cell (a hostile spiral) would hold the isolate for seconds.
 */
export const LOT_CLIP_BUDGET = 40_000_000;
/** Points clipped between two yields, whatever the lots' count: a few intricate lots are as much work as many plain. */
export const YIELD_EVERY_POINTS = 4_000_000;

/** Paces lots' facts: yields before a lot once YIELD_EVERY_LOTS lots or YIELD_EVERY_POINTS clipped points went by. */
export class FactsPacer {
  /** Lots computed since the last yield. */
  lots = 0;
  private points = clipWork.points;

  async next(): Promise<void> {
    if (this.lots >= YIELD_EVERY_LOTS || clipWork.points - this.points >= YIELD_EVERY_POINTS) {
      await nextTask();
      this.lots = 0;
      this.points = clipWork.points;
    }
    this.lots++;
  }
}

/** The record of the first v2 lot (in pack order) holding the point, or null. */
export async function lotRecordAt(lots: readonly PagedPack[], lon: number, lat: number): Promise<LotRecord | null> {
  for (const paged of lots) {
    const at = await paged.lotAt(lon, lat);
    // A damaged page under a lot would silently lose its facts: the upload is a 503 naming it instead.
    refuseDamaged(at.refused);
    if (!at.lot) continue;
    const { page, index } = at.lot;
    const view = chargedView(paged, at.snapshot, page);
    const record = view.layers.get(PARCELS)?.record?.(index);
    if (record) return record;
  }
  return null;
}

/** `own` (from the overlay kernels) with the planning facts of `beneath` where the overlays found no zone. */
export function inheritFacts(own: LotRecord, beneath: LotRecord | null): LotRecord {
  if (!beneath || own.facts.zones.length > 0) return own;
  const f = own.facts;
  const b = beneath.facts;
  const ownHeritage = f.heritageShare > 0;
  return {
    facts: {
      lotId: f.lotId,
      areaM2: f.areaM2,
      // Facts lent by a synthetic (demo) lot are demo facts.
      demoData: f.demoData || b.demoData,
      zones: b.zones,
      ...(b.controls ? { controls: b.controls } : {}),
      hazards: { flood: f.hazards.flood || b.hazards.flood, bushfire: f.hazards.bushfire || b.hazards.bushfire },
      heritageShare: ownHeritage ? f.heritageShare : b.heritageShare,
      heritageNames: ownHeritage ? f.heritageNames : b.heritageNames,
      ...((ownHeritage ? f.heritageKind : b.heritageKind)
        ? { heritageKind: ownHeritage ? f.heritageKind : b.heritageKind }
        : {}),
      nearestStop: f.nearestStop ?? b.nearestStop,
      nearestStation: f.nearestStation ?? b.nearestStation ?? null,
      centreDistanceM: f.centreDistanceM ?? b.centreDistanceM ?? null,
      // The places the lot beneath reaches, by straight line only: an upload's lot has no street it joins at.
      ...(b.reach ? { reach: straightOnly(b.reach) } : {}),
      // The uploaded lot's own shape, not the one beneath it.
      ...(f.shape ? { shape: f.shape } : {}),
    },
    place: {
      address: own.place.address,
      suburb: own.place.suburb ?? beneath.place.suburb,
      lga: own.place.lga ?? beneath.place.lga,
      frontageM: own.place.frontageM,
      centreM: own.place.centreM ?? beneath.place.centreM,
      heritageKind: ownHeritage ? own.place.heritageKind : beneath.place.heritageKind,
    },
  };
}

const straightOnly = (r: Reach): Reach => ({
  station: r.station ? { ...r.station, walkingM: null } : null,
  centre: r.centre ? { ...r.centre, walkingM: null } : null,
});

function vertices(g: AreaGeometry): number {
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  return polys.reduce((n, rings) => n + rings.reduce((m, r) => m + r.length, 0), 0);
}

/** The lot's facts, or a 422 naming it when its overlaps would take more than LOT_CLIP_BUDGET. */
function withinBudget<T>(lotId: string | null, polygon: AreaGeometry, work: () => T): T {
  try {
    return withClipBudget(LOT_CLIP_BUDGET, work);
  } catch (err) {
    if (!(err instanceof ClipBudgetError)) throw err;
    throw new UnprocessableError(
      `Lot ${lotId ?? "(no id)"}: its outline (${vertices(polygon).toLocaleString("en-AU")} positions) winds through the zoning and overlays too many times to measure its overlaps: simplify it (to 0.1 m, say) and upload it again`,
      ["body", "file"],
      "too_complex",
    );
  }
}

/** The v2 lot values of the upload's lot i: its facts from the overlays, else lent by the public lot beneath it. */
export async function uploadedLotValues(upload: Pack, context: UploadLotsContext, i: number): Promise<Value[]> {
  // The upload itself first (its lot ids and addresses), then what the organisation sees, its own packs first.
  const parcel = parcelFromFeature(upload, i);
  const own = withReserveFrontage(
    withinBudget(parcel.lotId, parcel.polygon, () => lotRecordFrom([upload, ...context.overlays], parcel)),
    upload,
    i,
  );
  const [lon, lat] = featureLabelPoint(columnsFromGeometry(parcel.polygon), 0);
  const beneath = own.facts.zones.length > 0 ? null : await lotRecordAt(context.lots, lon, lat);
  return lotValues(inheritFacts(own, beneath));
}

/** Lots of the upload's parcels layer (0 when it has none). */
export function uploadedLotCount(upload: Pack): number {
  const layer = upload.layers.get(PARCELS);
  return layer?.kind === "polygon" ? layer.count : 0;
}

async function* uploadedLots(upload: Pack, valuesOf: (i: number) => Promise<Value[]>): AsyncGenerator<FeatureInput> {
  const count = uploadedLotCount(upload);
  for (let i = 0; i < count; i++) {
    const parcel = parcelFromFeature(upload, i);
    yield { geometry: parcel.polygon as AreaGeometry, values: await valuesOf(i) };
  }
}

/** The upload's parcels as a v2 lots pack of the same id and version, each lot's values given by `valuesOf`. */
export async function encodeUploadedLots(
  upload: Pack,
  valuesOf: (i: number) => Promise<Value[]>,
  info: UploadLotsInfo,
): Promise<Uint8Array> {
  const bytes = await encodePack(
    uploadedLots(upload, valuesOf),
    {
      id: upload.id,
      version: upload.version,
      // Each lot's neighbours, precomputed (issue 55): an assembly reads them instead of comparing outlines.
      columns: [...LOT_COLUMNS, NEIGHBOURS_COLUMN],
      neighbours: neighbourValues,
      lotIdColumn: LOT_ID_COLUMN,
      summary: LOT_SUMMARY,
      info: { ...info, synthetic: String(upload.layers.get(PARCELS)?.synthetic === true) },
    },
    nextTask,
  );
  // Each page encoded, and each stored tile cut, is one bounded step: the request or build step shares its isolate.
  return withStoredTiles(bytes, upload.id, { pace: nextTask });
}

/** The uploaded pack's parcels as a v2 lots pack of the same id and version (an UploadLotsEncoder), built in the request. */
export function uploadLotsPack(upload: Pack, context: UploadLotsContext, info: UploadLotsInfo): Promise<Uint8Array> {
  const pacer = new FactsPacer();
  return encodeUploadedLots(
    upload,
    async (i) => {
      // Up to 5,000 lots' facts are seconds of work: other requests on the isolate run between batches.
      await pacer.next();
      return uploadedLotValues(upload, context, i);
    },
    info,
  );
}
