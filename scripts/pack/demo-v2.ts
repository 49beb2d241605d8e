// The demo's second version (`npm run pack -- demo-v2`): the same pack with a few Epping lots rezoned from R2 to
// R3 and one Epping lot subdivided in two, so publishing it fires the demo team's seeded alert (docs/design.md
// section 12). Deterministic: the lots are chosen from the pack itself, and the seed finds the same ones.
import polygonClipping, { type MultiPolygon as PcMultiPolygon, type Polygon as PcPolygon } from "polygon-clipping";
import { areaBBox, type BBox, bboxIntersects, featureBBox } from "../../src/geo/bbox.ts";
import { columnsFromGeometries, featureToGeometry } from "../../src/geo/columns.ts";
import { featureLabelPoint } from "../../src/geo/label-point.ts";
import type { AreaGeometry } from "../../src/geo/types.ts";
import { zonesOnParcel } from "../../src/packs/overlay.ts";
import { columnarOf, encodeColumnar } from "../../src/packs/paged/index.ts";
import type { Layer, LayerInput, Pack } from "../../src/packs/types.ts";

export const DEMO_V2_VERSION = "2.1.0";
const SUBURB = ", Epping NSW";
const REZONED = 3;
const TO_ZONE = { code: "R3", name: "Medium Density Residential" };
// A deposited plan number above every one the demo generator draws (1,000,000 to 1,899,999).
const NEW_PLAN = "DP2000001";

export type DemoLot = { lotId: string; index: number; bbox: BBox; point: [number, number]; geometry: AreaGeometry };
export type DemoV2Plan = { rezoned: DemoLot[]; subdivided: DemoLot; parts: [string, string] };

/** The Epping lots wholly zoned R2, in lot-id order: the first three are rezoned, the fourth subdivided. */
export function demoV2Plan(pack: Pack): DemoV2Plan {
  const parcels = pack.layers.get("parcels");
  if (parcels?.kind !== "polygon") throw new Error(`pack ${pack.id} has no parcels layer`);
  const lots: DemoLot[] = [];
  for (let i = 0; i < parcels.count; i++) {
    const props = parcels.props(i);
    if (!String(props.address ?? "").includes(SUBURB)) continue;
    lots.push({
      lotId: String(props.lot_id),
      index: i,
      bbox: featureBBox(parcels, i),
      point: featureLabelPoint(parcels, i),
      geometry: featureToGeometry(parcels, i),
    });
  }
  lots.sort((a, b) => (a.lotId < b.lotId ? -1 : a.lotId > b.lotId ? 1 : 0));
  const picked: DemoLot[] = [];
  for (const lot of lots) {
    const zones = zonesOnParcel([pack], lot.geometry);
    if (zones.length === 1 && zones[0]?.zone === "R2" && (zones[0]?.share ?? 0) > 0.99) picked.push(lot);
    if (picked.length === REZONED + 1) break;
  }
  const subdivided = picked[REZONED];
  if (!subdivided) throw new Error(`the demo pack has fewer than ${REZONED + 1} Epping lots zoned R2 alone`);
  return { rezoned: picked.slice(0, REZONED), subdivided, parts: [`1//${NEW_PLAN}`, `2//${NEW_PLAN}`] };
}

const rings = (g: AreaGeometry): PcMultiPolygon =>
  (g.type === "Polygon" ? [g.coordinates] : g.coordinates) as unknown as PcMultiPolygon;
const fromRings = (m: PcMultiPolygon): AreaGeometry =>
  m.length === 1
    ? { type: "Polygon", coordinates: m[0] as PcPolygon }
    : { type: "MultiPolygon", coordinates: m as unknown as AreaGeometry["coordinates"] as never };

// A lot drawn as four corners (the generator's rectangles) cut across its longer sides into two halves.
function halves(g: AreaGeometry): [AreaGeometry, AreaGeometry] {
  const ring = (g.type === "Polygon" ? g.coordinates[0] : g.coordinates[0]?.[0]) as [number, number][];
  const [a, b, c, d] = ring;
  if (!a || !b || !c || !d) throw new Error("a lot to subdivide needs four corners");
  const mid = (p: [number, number], q: [number, number]): [number, number] => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
  const long = Math.hypot(b[0] - a[0], b[1] - a[1]) >= Math.hypot(c[0] - b[0], c[1] - b[1]);
  const [m1, m2] = long ? [mid(a, b), mid(d, c)] : [mid(b, c), mid(a, d)];
  const first = long ? [a, m1, m2, d, a] : [a, b, m1, m2, a];
  const second = long ? [m1, b, c, m2, m1] : [m2, m1, c, d, m2];
  return [
    { type: "Polygon", coordinates: [first] },
    { type: "Polygon", coordinates: [second] },
  ];
}

type Rows = { geometries: AreaGeometry[]; rows: unknown[][] };

function rowsOf(layer: Layer): Rows {
  const out: Rows = { geometries: [], rows: [] };
  for (let i = 0; i < layer.count; i++) {
    const props = layer.props(i);
    out.geometries.push(featureToGeometry(layer, i));
    out.rows.push(layer.fields.map((f) => props[f] ?? null));
  }
  return out;
}

function inputOf(layer: Layer, rows?: Rows): LayerInput {
  const base = {
    name: layer.name,
    synthetic: layer.synthetic,
    fields: layer.fields,
    ...(layer.categoryField ? { categoryField: layer.categoryField } : {}),
    ...(layer.syntheticField ? { syntheticField: layer.syntheticField } : {}),
  };
  if (layer.kind === "point") {
    return {
      ...base,
      geometry: { kind: "point", coords: layer.coords },
      row: (i) => layer.fields.map((f) => layer.props(i)[f] ?? null),
    };
  }
  const r = rows ?? rowsOf(layer);
  return {
    ...base,
    geometry: { kind: "polygon", ...columnsFromGeometries(r.geometries) },
    row: (i) => r.rows[i] ?? [],
  };
}

/** The demo pack's second version (v2, a pack of layers) and what changed in it. */
export async function buildDemoV2(pack: Pack): Promise<{ bytes: Uint8Array; plan: DemoV2Plan }> {
  const plan = demoV2Plan(pack);
  const layers: LayerInput[] = [];
  for (const layer of pack.layers.values()) {
    if (layer.name === "zoning") {
      const r = rowsOf(layer);
      const zoneAt = layer.fields.indexOf("zone");
      const nameAt = layer.fields.indexOf("zone_name");
      for (const lot of plan.rezoned) {
        const cut = rings(lot.geometry);
        let template: unknown[] | undefined;
        r.geometries = r.geometries.map((g, k) => {
          if (!bboxIntersects(areaBBox(g), lot.bbox) || polygonClipping.intersection(rings(g), cut).length === 0)
            return g;
          const left = polygonClipping.difference(rings(g), cut);
          template ??= r.rows[k];
          return fromRings(left);
        });
        const row = [...(template ?? layer.fields.map(() => null))];
        row[zoneAt] = TO_ZONE.code;
        row[nameAt] = TO_ZONE.name;
        r.geometries.push(lot.geometry);
        r.rows.push(row);
      }
      // A zone cut away entirely leaves no empty feature behind.
      const keep = r.geometries.map((g) => rings(g).length > 0);
      layers.push(
        inputOf(layer, { geometries: r.geometries.filter((_, k) => keep[k]), rows: r.rows.filter((_, k) => keep[k]) }),
      );
    } else if (layer.name === "parcels") {
      const r = rowsOf(layer);
      const at = plan.subdivided.index;
      const row = r.rows[at] as unknown[];
      const idAt = layer.fields.indexOf("lot_id");
      const areaAt = layer.fields.indexOf("area_m2");
      const parts = halves(plan.subdivided.geometry);
      r.geometries.splice(at, 1, ...parts);
      r.rows.splice(
        at,
        1,
        ...plan.parts.map((id) => {
          const next = [...row];
          next[idAt] = id;
          if (areaAt >= 0) next[areaAt] = Math.round((Number(row[areaAt]) / 2) * 10) / 10;
          return next;
        }),
      );
      layers.push(inputOf(layer, r));
    } else layers.push(inputOf(layer));
  }
  const note =
    `${pack.meta.note ?? ""} Version ${DEMO_V2_VERSION}: ${plan.rezoned.length} Epping lots rezoned R2 to R3, lot ${plan.subdivided.lotId} subdivided.`.trim();
  const bytes = await encodeColumnar(layers.map(columnarOf), {
    id: pack.id,
    version: DEMO_V2_VERSION,
    meta: { ...pack.meta, note },
  });
  return { bytes, plan };
}

/** The same pack under another version and nothing else changed (v2): a publish of it fires no alert. */
export function repackDemo(pack: Pack, version: string): Promise<Uint8Array> {
  const layers = [...pack.layers.values()].map((l) => columnarOf(inputOf(l)));
  return encodeColumnar(layers, { id: pack.id, version, meta: pack.meta });
}
