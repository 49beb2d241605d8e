// Phase 3 of a streamed build: lots in Hilbert order, each with its facts from the overlay kernels, into PackWriter's pages.
import { basename } from "node:path";
import { featureAreaM2 } from "../../../src/geo/geodesic-area.ts";
import { featureBBox } from "../../../src/geo/bbox.ts";
import { featureCentroid } from "../../../src/geo/centroid.ts";
import { featureToGeometry } from "../../../src/geo/columns.ts";
import { layerSpec } from "../../../src/packs/upload/layer-specs.ts";
import {
  LOT_ID_COLUMN,
  lotColumn,
  lotIdHash,
  lotKey,
  lotValues,
  type PackOptions,
  PackWriter,
} from "../../../src/packs/paged/index.ts";
import { lotRecordFrom } from "../../../src/assess/lot-record.ts";
import type { ParcelHit } from "../../../src/packs/spatial.ts";
import type { Pack, Props } from "../../../src/packs/types.ts";
import { GeoJsonInputError } from "./geojson-split.ts";
import type { LotIdIndexSpill } from "./lot-id-index.ts";
import { SpilledCounts } from "./overview-counts.ts";
import { type LotFrame, LotFrameDecoder } from "./lot-frame.ts";
import type { Progress } from "./progress.ts";
import type { NeighbourValues } from "./neighbour-sweep.ts";
import { type FileWriter, mergeRuns } from "./runs.ts";

// The lot as parcelFromFeature reads it from a v1 pack: the same geometry functions over the same float64 columns.
function parcelOf(packId: string, fields: readonly string[], lot: LotFrame): ParcelHit {
  const row = JSON.parse(lot.row) as unknown[];
  const props: Props = {};
  fields.forEach((f, k) => {
    props[f] = row[k] ?? null;
  });
  const c = lot.cols;
  return {
    packId,
    index: lot.feature,
    lotId: typeof props.lot_id === "string" ? props.lot_id : null,
    areaM2: featureAreaM2(c, 0),
    polygon: featureToGeometry(c, 0),
    bbox: featureBBox(c, 0),
    centroid: featureCentroid(c, 0),
    props,
  };
}

export type LotFactsJob = {
  // The cadastre file, for naming a lot that fails.
  file: string;
  runs: readonly string[];
  readBufferBytes: number;
  fanIn: number;
  // Free memory the merges read through (runs.ts mergeRuns): the lots' merge, then the overview counts'.
  pool?: Uint8Array;
  // An empty directory for the overview counts' runs.
  countsDir: string;
  // PackWriter's options without a lot-id column: the index is spilled to `index` instead.
  pack: PackOptions;
  packs: readonly Pack[];
  pages: FileWriter;
  index: LotIdIndexSpill;
  lots: number;
  bytesRead: number;
  // Each lot's neighbours column value in pack order, when the pack carries the column (last among its columns).
  neighbours?: NeighbourValues;
};

/** Writes every lot's page bytes to `job.pages`; returns PackWriter's head, its tail (overview pages) and the page count. */
export async function writeLotPages(
  job: LotFactsJob,
  progress: Progress,
): Promise<{ head: Uint8Array; tail: Uint8Array; pages: number }> {
  const name = basename(job.file);
  const fields = layerSpec("parcels").fields;
  const frames = new LotFrameDecoder();
  let pending: number[] = [];
  let pageNo = 0;
  const overviewCounts = new SpilledCounts(job.countsDir, {
    fanIn: job.fanIn,
    readBufferBytes: job.readBufferBytes,
    pool: job.pool,
  });
  const writer = new PackWriter({ ...job.pack, overviewCounts }, (bytes) => {
    job.pages.write(bytes);
    for (const h of pending) job.index.add(h, pageNo);
    pending = [];
    pageNo++;
  });
  const idCol = lotColumn(LOT_ID_COLUMN);
  progress.start("facts", "lots", job.lots);
  let done = 0;
  for (const frame of mergeRuns(job.runs, job.readBufferBytes, job.pool)) {
    const lot = frames.decode(frame.payload);
    const parcel = parcelOf(job.pack.id, fields, lot);
    try {
      const values = lotValues(lotRecordFrom(job.packs, parcel));
      if (job.neighbours) values.push(job.neighbours.valueAt(done));
      const id = values[idCol];
      // The lot's page is known when PackWriter closes it, which may happen inside this add.
      if (typeof id === "string") pending.push(lotIdHash(lotKey(id)));
      await writer.add({ geometry: parcel.polygon, values });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new GeoJsonInputError(
        `${name}: features[${lot.feature}] (lot ${parcel.lotId ?? "without an id"}): ${why}`,
        lot.feature,
      );
    }
    if (++done % 512 === 0) progress.update(done, job.bytesRead);
  }
  const { head, tail } = await writer.finish();
  progress.finish(done, job.bytesRead);
  return { head, tail, pages: pageNo };
}
