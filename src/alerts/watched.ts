// The lots a watched place holds in one version of a pack, as alert states: a saved lot by its id, a suburb by
// the suburb each lot is in, a polygon by each lot's label point (as a site search places lots).
import { lotRecordFrom } from "../assess/lot-record.ts";
import { type BBox, featureBBox } from "../geo/bbox.ts";
import { featureLabelPoint } from "../geo/label-point.ts";
import { pointInPolygon } from "../geo/pip.ts";
import type { PolygonGeometry } from "../geo/types.ts";
import { normaliseName } from "../geocode/gazetteer.ts";
import { normaliseLotId } from "../packs/lot-id.ts";
import { parcelFromFeature } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import { type LotState, lotState } from "./lot-state.ts";

export type WatchPlace =
  | { kind: "lot"; lotId: string; bbox: BBox }
  | { kind: "suburb"; name: string; bbox: BBox }
  | { kind: "polygon"; polygon: PolygonGeometry; bbox: BBox };

/**
 * The states of the watched lots in `version` (a whole v1 pack, or the v2 page views covering the place), with
 * `context` the packs facts are cut against for a v1 pack (its own overlays come first).
 */
export function watchedLots(version: readonly Pack[], context: readonly Pack[], place: WatchPlace): LotState[] {
  const out: LotState[] = [];
  const lotKey = place.kind === "lot" ? normaliseLotId(place.lotId) : null;
  const suburbKey = place.kind === "suburb" ? normaliseName(place.name) : null;
  for (const pack of version) {
    const layer = pack.layers.get("parcels");
    if (layer?.kind !== "polygon") continue;
    const b = place.bbox;
    const candidates = layer.index
      ? layer.index.search(b[0], b[1], b[2], b[3])
      : Array.from({ length: layer.count }, (_, i) => i);
    for (const i of candidates) {
      const hit = parcelFromFeature(pack, i);
      if (!hit.lotId) continue;
      if (lotKey !== null && normaliseLotId(hit.lotId) !== lotKey) continue;
      const point = featureLabelPoint(layer, i);
      if (place.kind === "polygon" && !pointInPolygon(place.polygon, point[0], point[1])) continue;
      const record = layer.record ? layer.record(i) : lotRecordFrom([pack, ...context], hit);
      if (suburbKey !== null && normaliseName(record.place.suburb ?? "") !== suburbKey) continue;
      const address = typeof hit.props.address === "string" && hit.props.address !== "" ? hit.props.address : null;
      out.push(lotState(record, hit.lotId, featureBBox(layer, i), point, address));
    }
  }
  return out;
}
