// Deterministic demo pack: synthetic street blocks two lots deep inside real suburb boundaries, with zoning,
// FSR, height and lot size as separate layers (their own boundaries, as NSW publishes them), hazards,
// synthetic bus stops and the real railway stations of Transport for NSW's GTFS feed.
import polygonClipping from "polygon-clipping";
import type { MultiPolygon as PcMultiPolygon, Polygon as PcPolygon } from "polygon-clipping";
import { ellipsoidRadii } from "../../src/geo/geodesic-area.ts";
import { haversineM } from "../../src/geo/distance.ts";
import { columnsFromGeometries, columnsFromGeometry } from "../../src/geo/columns.ts";
import { featureCentroid } from "../../src/geo/centroid.ts";
import { pointInFeature } from "../../src/geo/pip.ts";
import type { AreaGeometry, Columns } from "../../src/geo/types.ts";
import { columnarOf, encodeColumnar } from "../../src/packs/paged/index.ts";
import type { LayerInput, PackMeta } from "../../src/packs/types.ts";
import type { Station } from "./gtfs.ts";
import { seededRandom } from "./random.ts";
import { topologyFeatures } from "./topojson.ts";
import type { Topology } from "./topojson.ts";

export const DEMO_NOTE =
  "demo data: synthetic cadastre, zoning, controls, hazards and bus stops modelled on typical figures; real railway stations; not for decisions";
export const DEMO_SEED = 20240611;

type Rect = [u0: number, v0: number, u1: number, v1: number];
type Zone = { code: string; name: string; fsr: number | null; height: number | null; minLot: number | null };
type Stop = { name: string; lon: number; lat: number; mode: string; id: string; synthetic: boolean };
// A control (FSR, height, minimum lot size) drawn over the zones' own value inside a rectangle, so its map
// has boundaries of its own that cut through lots, as real control maps do.
type ControlArea = { rect: Rect; value: number };
type ControlKind = "fsr" | "height" | "minLot";

type SuburbPlan = {
  name: string;
  postcode: string;
  lga: string;
  centre: [number, number];
  halfU: number;
  halfV: number;
  angleDeg: number;
  frontage: [number, number];
  depth: [number, number];
  blockLength: number;
  baseZone: Zone;
  zones: { rect: Rect; zone: Zone }[];
  parks: Rect[];
  bush?: Rect;
  creek?: { v0: number; amp: number; wavelength: number; width: number };
  conservation?: Rect;
  heritageItems: number;
  streets: string[];
  // Later areas win where they overlap, like a map drawn in layers.
  controls?: Partial<Record<ControlKind, ControlArea[]>>;
};

const R2: Zone = { code: "R2", name: "Low Density Residential", fsr: 0.5, height: 9.5, minLot: 450 };
const R3: Zone = { code: "R3", name: "Medium Density Residential", fsr: 0.9, height: 9.5, minLot: 200 };
const R4a: Zone = { code: "R4", name: "High Density Residential", fsr: 1.5, height: 18, minLot: 1000 };
const R4b: Zone = { code: "R4", name: "High Density Residential", fsr: 2, height: 22, minLot: 1000 };
// Current Standard Instrument codes only: the 2023 employment-zones reform retired B2 (now E1) and B4 (now MU1).
const E1: Zone = { code: "E1", name: "Local Centre", fsr: 1.5, height: 14, minLot: null };
const MU1: Zone = { code: "MU1", name: "Mixed Use", fsr: 4, height: 40, minLot: null };
const RE1: Zone = { code: "RE1", name: "Public Recreation", fsr: null, height: null, minLot: null };

const PLANS: SuburbPlan[] = [
  {
    name: "Newtown",
    postcode: "2042",
    lga: "Inner West",
    centre: [151.1795, -33.8985],
    halfU: 420,
    halfV: 330,
    angleDeg: 8,
    frontage: [5, 8],
    depth: [20, 30],
    blockLength: 160,
    baseZone: R3,
    zones: [{ rect: [-420, -40, 420, 25], zone: E1 }],
    parks: [[180, 120, 300, 200]],
    conservation: [-420, 60, 0, 330],
    heritageItems: 5,
    streets: [
      "Wilson Street",
      "Australia Street",
      "Camden Street",
      "Eliza Street",
      "Holmwood Street",
      "Brown Street",
      "Lennox Street",
      "Station Street",
    ],
    controls: {
      height: [
        { rect: [-420, -70, 420, 55], value: 12 },
        { rect: [-420, -40, 420, 25], value: 14 },
      ],
      fsr: [{ rect: [-150, -40, 150, 25], value: 2 }],
    },
  },
  {
    name: "Erskineville",
    postcode: "2043",
    lga: "Sydney",
    centre: [151.1862, -33.9012],
    halfU: 300,
    halfV: 260,
    angleDeg: -5,
    frontage: [5, 7.5],
    depth: [20, 30],
    blockLength: 140,
    baseZone: R3,
    zones: [{ rect: [-300, -30, 300, 20], zone: E1 }],
    parks: [[-260, -220, -170, -150]],
    creek: { v0: -150, amp: 25, wavelength: 500, width: 50 },
    heritageItems: 3,
    streets: [
      "Erskineville Road",
      "Swanson Street",
      "Ashmore Street",
      "Rochford Street",
      "Knight Street",
      "Prospect Street",
    ],
    controls: { minLot: [{ rect: [-300, 60, 0, 260], value: 230 }] },
  },
  {
    name: "Epping",
    postcode: "2121",
    lga: "Parramatta",
    centre: [151.0825, -33.7735],
    halfU: 650,
    halfV: 500,
    angleDeg: 15,
    frontage: [12, 20],
    depth: [30, 42],
    blockLength: 200,
    baseZone: R2,
    zones: [
      { rect: [-220, -200, 230, 180], zone: R4b },
      { rect: [-60, -40, 80, 60], zone: MU1 },
    ],
    parks: [[-600, 300, -430, 420]],
    bush: [480, -500, 650, 500],
    creek: { v0: 320, amp: 30, wavelength: 700, width: 60 },
    heritageItems: 3,
    streets: [
      "Essex Street",
      "Oxford Street",
      "Cambridge Street",
      "Norfolk Road",
      "Ray Road",
      "Kent Street",
      "Chester Street",
      "Abuklea Road",
      "Pembroke Street",
      "Carlingford Road",
    ],
    controls: {
      fsr: [{ rect: [-140, -120, 160, 110], value: 3 }],
      height: [
        { rect: [-140, -120, 160, 110], value: 36 },
        { rect: [-60, -40, 80, 60], value: 40 },
      ],
      minLot: [{ rect: [-650, 250, 650, 500], value: 550 }],
    },
  },
  {
    name: "Eastwood",
    postcode: "2122",
    lga: "Ryde",
    centre: [151.0815, -33.7905],
    halfU: 550,
    halfV: 420,
    angleDeg: -10,
    frontage: [12, 18],
    depth: [30, 40],
    blockLength: 190,
    baseZone: R2,
    zones: [
      { rect: [-180, -160, 200, 150], zone: R4a },
      { rect: [-40, -30, 60, 40], zone: MU1 },
    ],
    parks: [[300, -380, 460, -260]],
    creek: { v0: -260, amp: 35, wavelength: 600, width: 55 },
    heritageItems: 2,
    streets: [
      "Rowe Street",
      "Shaftsbury Road",
      "Hillview Road",
      "Lakeside Road",
      "Blaxland Road",
      "Clanalpine Street",
      "Trelawney Street",
      "First Avenue",
    ],
    controls: { height: [{ rect: [-180, -160, 10, 150], value: 15 }] },
  },
  {
    name: "Carlingford",
    postcode: "2118",
    lga: "Parramatta",
    centre: [151.0486, -33.7795],
    halfU: 500,
    halfV: 380,
    angleDeg: 25,
    frontage: [14, 20],
    depth: [32, 45],
    blockLength: 210,
    baseZone: R2,
    zones: [{ rect: [-150, -120, 120, 100], zone: R4a }],
    parks: [],
    bush: [-500, -380, -330, 380],
    heritageItems: 1,
    streets: [
      "Pennant Hills Road",
      "Marsden Road",
      "Moseley Street",
      "Jenkins Road",
      "Baker Street",
      "Felton Road",
      "Lloyds Avenue",
    ],
    controls: { fsr: [{ rect: [-150, -120, -20, 100], value: 1.8 }] },
  },
  {
    name: "Parramatta",
    postcode: "2150",
    lga: "Parramatta",
    centre: [151.0045, -33.8155],
    halfU: 500,
    halfV: 380,
    angleDeg: 0,
    frontage: [18, 35],
    depth: [35, 50],
    blockLength: 180,
    baseZone: R4b,
    zones: [
      { rect: [-300, -180, 320, 220], zone: MU1 },
      { rect: [-500, 280, -250, 380], zone: R3 },
    ],
    parks: [[330, 250, 480, 360]],
    creek: { v0: 300, amp: 20, wavelength: 800, width: 70 },
    heritageItems: 4,
    streets: [
      "Church Street",
      "George Street",
      "Macquarie Street",
      "Argyle Street",
      "Smith Street",
      "Hassall Street",
      "Harris Street",
      "Station Street East",
    ],
    controls: { fsr: [{ rect: [0, -180, 320, 60], value: 6 }], height: [{ rect: [-300, -180, 0, 220], value: 52 }] },
  },
];

const HERITAGE_NAMES = [
  "Victorian terrace",
  "Federation cottage",
  "Inter-war bungalow",
  "Former bank",
  "Sandstone church",
  "Corner shop and residence",
  "Georgian cottage",
];

const RAD = Math.PI / 180;

// Local metric frame (u along streets, v across) rotated about the plan centre.
function frame(plan: SuburbPlan): (u: number, v: number) => [number, number] {
  const [lon0, lat0] = plan.centre;
  const { m, n } = ellipsoidRadii(lat0);
  const kx = n * Math.cos(lat0 * RAD) * RAD;
  const ky = m * RAD;
  const c = Math.cos(plan.angleDeg * RAD);
  const s = Math.sin(plan.angleDeg * RAD);
  return (u, v) => [round7(lon0 + (u * c - v * s) / kx), round7(lat0 + (u * s + v * c) / ky)];
}

// 1e-7 degrees is about 1 cm; rounding keeps files identical regardless of float noise in the transform.
function round7(x: number): number {
  return Math.round(x * 1e7) / 1e7;
}

function rectRing(to: (u: number, v: number) => [number, number], r: Rect): [number, number][] {
  return [to(r[0], r[1]), to(r[2], r[1]), to(r[2], r[3]), to(r[0], r[3]), to(r[0], r[1])];
}

function inRect(r: Rect, u: number, v: number): boolean {
  return u >= r[0] && u <= r[2] && v >= r[1] && v <= r[3];
}

type Lot = {
  geometry: AreaGeometry;
  lotId: string;
  area: number;
  address: string;
  suburb: string;
  centre: [number, number];
};

type Controls = Record<ControlKind, { geometry: PcMultiPolygon; value: number }[]>;

type Generated = {
  lots: Lot[];
  zones: { geometry: PcMultiPolygon; zone: Zone; lga: string }[];
  controls: Controls;
  flood: { geometry: PcMultiPolygon; category: string; name: string }[];
  bushfire: { geometry: PcMultiPolygon; category: string }[];
  heritage: { geometry: PcMultiPolygon; name: string; significance: string; itemId: string }[];
  stops: Stop[];
};

function creekBand(plan: SuburbPlan, to: (u: number, v: number) => [number, number], width: number): PcPolygon {
  const c = plan.creek;
  if (!c) return [];
  const top: [number, number][] = [];
  const bottom: [number, number][] = [];
  for (let u = -plan.halfU - 40; u <= plan.halfU + 40; u += 20) {
    const v = c.v0 + c.amp * Math.sin((2 * Math.PI * u) / c.wavelength);
    top.push(to(u, v + width / 2));
    bottom.push(to(u, v - width / 2));
  }
  const ring = [...bottom, ...top.reverse()];
  ring.push(ring[0] as [number, number]);
  return [ring];
}

function creekOffset(plan: SuburbPlan, u: number, v: number): number {
  const c = plan.creek;
  if (!c) return Infinity;
  return Math.abs(v - (c.v0 + c.amp * Math.sin((2 * Math.PI * u) / c.wavelength)));
}

function generateSuburb(
  plan: SuburbPlan,
  suburb: AreaGeometry,
  rand: () => number,
  usedPlans: Set<number>,
  scale: number,
  out: Generated,
): void {
  const to = frame(plan);
  const cols: Columns = columnsFromGeometry(suburb);
  const inside = (p: [number, number]) => pointInFeature(cols, 0, p[0], p[1]);
  const halfU = plan.halfU * scale;
  const halfV = plan.halfV * scale;
  const road = 15;
  const between = (r: [number, number]) => r[0] + rand() * (r[1] - r[0]);
  const blocked = (u: number, v: number) =>
    plan.parks.some((r) => inRect(r, u, v)) ||
    (plan.bush ? inRect(plan.bush, u, v) : false) ||
    creekOffset(plan, u, v) < (plan.creek?.width ?? 0) / 5;
  const heritageCandidates: Lot[] = [];
  let streetNo = 0;
  let stopNo = 0;
  for (let v = -halfV; v < halfV; ) {
    const dA = Math.round(between(plan.depth));
    const dB = Math.round(between(plan.depth));
    const street = plan.streets[streetNo % plan.streets.length] as string;
    const nextStreet = plan.streets[(streetNo + 1) % plan.streets.length] as string;
    streetNo++;
    const vA = v + road;
    const vB = vA + dA;
    const numbers = { even: 2, odd: 1 };
    let sinceStop = 0;
    for (let u = -halfU; u < halfU; u += road) {
      const uEnd = Math.min(halfU, u + plan.blockLength);
      let dp = 0;
      while (dp === 0 || usedPlans.has(dp)) dp = 1000000 + Math.floor(rand() * 900000);
      usedPlans.add(dp);
      let lotNo = 1;
      for (const row of [0, 1]) {
        let x = u;
        const v0 = row === 0 ? vA : vB;
        const v1 = row === 0 ? vB : vB + dB;
        while (true) {
          const f = Math.round(between(plan.frontage) * 10) / 10;
          if (x + f > uEnd) break;
          const r: Rect = [x, v0, x + f, v1];
          x += f;
          const uc = (r[0] + r[2]) / 2;
          const vc = (r[1] + r[3]) / 2;
          const corners = [to(r[0], r[1]), to(r[2], r[1]), to(r[2], r[3]), to(r[0], r[3])];
          if (blocked(uc, vc) || !corners.every(inside)) continue;
          const no = row === 0 ? numbers.even : numbers.odd;
          if (row === 0) numbers.even += 2;
          else numbers.odd += 2;
          const lot: Lot = {
            geometry: { type: "Polygon", coordinates: [rectRing(to, r)] },
            lotId: `${lotNo++}//DP${dp}`,
            area: Math.round(f * (r[3] - r[1]) * 10) / 10,
            address: `${no} ${row === 0 ? street : nextStreet}, ${plan.name} NSW ${plan.postcode}`,
            suburb: plan.name,
            centre: to(uc, vc),
          };
          out.lots.push(lot);
          heritageCandidates.push(lot);
        }
      }
      sinceStop += uEnd - u;
      if (sinceStop >= 350) {
        sinceStop = 0;
        const p = to(uEnd, v + road / 2);
        if (inside(p))
          out.stops.push({
            name: `${street} stop ${++stopNo}`,
            lon: p[0],
            lat: p[1],
            mode: "bus",
            id: `${plan.name.slice(0, 3).toUpperCase()}${stopNo}`,
            synthetic: true,
          });
      }
      u = uEnd;
    }
    v = vB + dB;
  }

  const suburbClip = suburb.coordinates as PcPolygon | PcMultiPolygon;
  const clip = (g: PcPolygon | PcMultiPolygon) => polygonClipping.intersection(g, suburbClip);
  const windowRect: Rect = [-halfU - 20, -halfV - 20, halfU + 20, halfV + 20];
  const special: { rect: Rect; zone: Zone }[] = [...plan.zones, ...plan.parks.map((rect) => ({ rect, zone: RE1 }))];
  if (plan.bush) special.push({ rect: plan.bush, zone: RE1 });
  let rest: PcMultiPolygon = [[rectRing(to, windowRect)]];
  // Later entries win where rectangles overlap, like a zoning map drawn in layers.
  const drawn: { geometry: PcMultiPolygon; zone: Zone }[] = [];
  for (let k = special.length - 1; k >= 0; k--) {
    const s = special[k] as { rect: Rect; zone: Zone };
    let g: PcMultiPolygon = polygonClipping.intersection([rectRing(to, s.rect)], rest);
    rest = polygonClipping.difference(rest, g);
    g = clip(g);
    if (g.length) drawn.push({ geometry: g, zone: s.zone });
  }
  const base = clip(rest);
  const zones = [...(base.length ? [{ geometry: base, zone: plan.baseZone }] : []), ...drawn.reverse()];
  out.zones.push(...zones.map((z) => ({ ...z, lga: plan.lga })));
  const zoneValue: Record<ControlKind, (z: Zone) => number | null> = {
    fsr: (z) => z.fsr,
    height: (z) => z.height,
    minLot: (z) => z.minLot,
  };
  for (const kind of ["fsr", "height", "minLot"] as const) {
    // Each control starts from its zones' values, then its own areas are drawn over them.
    let areas = zones.flatMap((z) => {
      const v = zoneValue[kind](z.zone);
      return v === null ? [] : [{ geometry: z.geometry, value: v }];
    });
    for (const a of plan.controls?.[kind] ?? []) {
      // Only where the control is mapped at all: parks and bushland keep none.
      const mapped = areas.length
        ? polygonClipping.union(...(areas.map((x) => x.geometry) as [PcMultiPolygon, ...PcMultiPolygon[]]))
        : [];
      const g = polygonClipping.intersection(clip([rectRing(to, a.rect)]), mapped);
      if (!g.length) continue;
      areas = areas
        .map((x) => ({ ...x, geometry: polygonClipping.difference(x.geometry, g) }))
        .filter((x) => x.geometry.length > 0);
      areas.push({ geometry: g, value: a.value });
    }
    out.controls[kind].push(...areas);
  }

  if (plan.creek) {
    const outer = clip(creekBand(plan, to, plan.creek.width));
    const core = clip(creekBand(plan, to, plan.creek.width / 3));
    if (outer.length)
      out.flood.push({
        geometry: outer,
        category: "Flood planning area",
        name: `${plan.name} Creek flood planning area`,
      });
    if (core.length) out.flood.push({ geometry: core, category: "Floodway", name: `${plan.name} Creek floodway` });
  }
  if (plan.bush) {
    const b = plan.bush;
    const veg = clip([rectRing(to, b)]);
    const ring = polygonClipping.difference(
      [rectRing(to, [b[0] - 100, b[1] - 100, b[2] + 100, b[3] + 100])],
      [rectRing(to, b)],
    );
    const buffer = clip(ring);
    if (veg.length) out.bushfire.push({ geometry: veg, category: "Vegetation Category 1" });
    if (buffer.length) out.bushfire.push({ geometry: buffer, category: "Vegetation Buffer" });
  }
  if (plan.conservation) {
    const g = clip([rectRing(to, plan.conservation)]);
    if (g.length)
      out.heritage.push({
        geometry: g,
        name: `${plan.name} Heritage Conservation Area`,
        significance: "Conservation area",
        itemId: `C${out.heritage.length + 1}`,
      });
  }
  for (let h = 0; h < plan.heritageItems && heritageCandidates.length > 0; h++) {
    const lot = heritageCandidates.splice(Math.floor(rand() * heritageCandidates.length), 1)[0] as Lot;
    out.heritage.push({
      geometry: [lot.geometry.coordinates as PcPolygon],
      name: `${HERITAGE_NAMES[Math.floor(rand() * HERITAGE_NAMES.length)]}, ${lot.address.split(",")[0]}`,
      significance: rand() < 0.2 ? "State" : "Local",
      itemId: `I${100 + out.heritage.length}`,
    });
  }
}

function polygonLayer(
  name: string,
  fields: string[],
  geoms: AreaGeometry[],
  rows: unknown[][],
  categoryField?: string,
): LayerInput {
  return {
    name,
    synthetic: true,
    categoryField,
    fields,
    geometry: { kind: "polygon", ...columnsFromGeometries(geoms) },
    row: (i) => rows[i] as unknown[],
  };
}

function mp(g: PcMultiPolygon): AreaGeometry {
  return g.length === 1
    ? { type: "Polygon", coordinates: g[0] as PcPolygon }
    : { type: "MultiPolygon", coordinates: g };
}

export const DEMO_ID = "sydney-demo";
export const DEMO_VERSION = "2.0.0";

export type DemoLayers = {
  layers: LayerInput[];
  lots: Lot[];
  stops: { real: number; synthetic: number };
  examples: Record<string, string>;
};

export const GTFS_ATTRIBUTION =
  "Railway stations: Contains data from Transport for NSW (Sydney Trains GTFS, 2018), CC BY 4.0.";

export const DEMO_META: PackMeta = {
  title: "Sydney demo (synthetic, with real stations)",
  attribution:
    "Synthetic cadastre, zoning, controls, hazards and bus stops generated by scripts/pack/demo.ts inside suburb boundaries from the ABS ASGS Edition 3 (2021) Suburbs and Localities, CC BY 4.0. " +
    GTFS_ATTRIBUTION,
  licence: "CC BY 4.0 (suburb boundaries, railway stations); synthetic layers: no restrictions",
  note: DEMO_NOTE,
};

// A station serves the demo when it is within the scoring's 1.6 km reach of a suburb's street grid.
const STATION_REACH_M = 1600;

function stationsNear(plans: readonly SuburbPlan[], stations: readonly Station[], scale: number): Stop[] {
  return stations
    .filter((st) =>
      plans.some(
        (p) =>
          haversineM(p.centre[0], p.centre[1], st.lon, st.lat) <=
          Math.hypot(p.halfU, p.halfV) * scale + STATION_REACH_M,
      ),
    )
    .map((st) => ({ name: st.name, lon: st.lon, lat: st.lat, mode: "train", id: st.stopId, synthetic: false }));
}

function valueLabel(kind: ControlKind, v: number): string {
  return kind === "fsr" ? `${v}:1` : kind === "height" ? `${v} m` : `${v} m²`;
}

export type DemoOptions = { stations: readonly Station[]; seed?: number; scale?: number };

// The demo's layers; `stations` are the real stations (GTFS) to place, `scale` (0..1] shrinks every suburb's window, for quick tests.
export function demoLayers(topo: Topology, options: DemoOptions): DemoLayers {
  const rand = seededRandom(options.seed ?? DEMO_SEED);
  const scale = options.scale ?? 1;
  const suburbs = topologyFeatures(topo, "suburbs");
  const out: Generated = {
    lots: [],
    zones: [],
    controls: { fsr: [], height: [], minLot: [] },
    flood: [],
    bushfire: [],
    heritage: [],
    stops: [],
  };
  const usedPlans = new Set<number>();
  for (const plan of PLANS) {
    const s = suburbs.find((f) => f.properties.name === plan.name);
    if (!s) throw new Error(`suburb ${plan.name} is not in the topology`);
    generateSuburb(plan, s.geometry, rand, usedPlans, scale, out);
  }
  out.stops.push(...stationsNear(PLANS, options.stations, scale));
  const control = (name: string, field: string, kind: ControlKind, extra: string[] = []) =>
    polygonLayer(
      name,
      [field, "label", ...extra, "epi_name"],
      out.controls[kind].map((c) => mp(c.geometry)),
      out.controls[kind].map((c) => [
        c.value,
        valueLabel(kind, c.value),
        ...extra.map(() => (kind === "height" ? "Clause 4.3" : null)),
        DEMO_EPI,
      ]),
      field,
    );
  const layers: LayerInput[] = [
    polygonLayer(
      "parcels",
      ["lot_id", "area_m2", "address"],
      out.lots.map((l) => l.geometry),
      out.lots.map((l) => [l.lotId, l.area, l.address]),
    ),
    polygonLayer(
      "zoning",
      ["zone", "zone_name", "epi_name", "lga"],
      out.zones.map((z) => mp(z.geometry)),
      out.zones.map((z) => [z.zone.code, z.zone.name, DEMO_EPI, z.lga]),
      "zone",
    ),
    control("fsr", "fsr", "fsr"),
    control("height", "height_m", "height", ["clause"]),
    control("lot_size", "min_lot_m2", "minLot"),
    polygonLayer(
      "flood",
      ["category", "name"],
      out.flood.map((f) => mp(f.geometry)),
      out.flood.map((f) => [f.category, f.name]),
      "category",
    ),
    polygonLayer(
      "bushfire",
      ["category"],
      out.bushfire.map((f) => mp(f.geometry)),
      out.bushfire.map((f) => [f.category]),
      "category",
    ),
    polygonLayer(
      "heritage",
      ["name", "significance", "item_id", "class", "epi_name"],
      out.heritage.map((f) => mp(f.geometry)),
      out.heritage.map((f) => [
        f.name,
        f.significance,
        f.itemId,
        f.itemId.startsWith("C") ? "Conservation Area - General" : "Item - General",
        DEMO_EPI,
      ]),
      "significance",
    ),
    {
      name: "transport",
      // Real stations and synthetic bus stops side by side: each stop says which it is.
      synthetic: false,
      syntheticField: "synthetic",
      categoryField: "mode",
      fields: ["name", "mode", "stop_id", "synthetic"],
      geometry: { kind: "point", coords: Float64Array.from(out.stops.flatMap((s) => [s.lon, s.lat])) },
      row: (i) => {
        const s = out.stops[i] as Stop;
        return [s.name, s.mode, s.id, s.synthetic];
      },
    },
  ];
  const real = out.stops.filter((s) => !s.synthetic).length;
  return {
    layers,
    lots: out.lots,
    stops: { real, synthetic: out.stops.length - real },
    examples: examples(out.lots, rand),
  };
}

export type DemoOutput = Omit<DemoLayers, "layers"> & { pack: Uint8Array };

/** The demo pack, a v2 pack of its layers, with its lots, stops and example CSVs. */
export async function generateDemo(topo: Topology, options: DemoOptions): Promise<DemoOutput> {
  const { layers, ...rest } = demoLayers(topo, options);
  const pack = await encodeColumnar(layers.map(columnarOf), { id: DEMO_ID, version: DEMO_VERSION, meta: DEMO_META });
  return { pack, ...rest };
}

// The synthetic layers name no real plan.
const DEMO_EPI = "Synthetic demo plan";

function csvCell(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv(header: string[], rows: (string | number)[][]): string {
  return `${[header, ...rows].map((r) => r.map(csvCell).join(",")).join("\n")}\n`;
}

function sample<T>(items: T[], k: number, rand: () => number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < k && pool.length) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0] as T);
  return out;
}

const fixed6 = (x: number) => Number(x.toFixed(6));

// Example batch uploads that point at real generated lots, so they stay true whenever the pack is rebuilt.
function examples(lots: Lot[], rand: () => number): Record<string, string> {
  const centre = (l: Lot) => featureCentroid(columnsFromGeometry(l.geometry), 0);
  const newtown = sample(
    lots.filter((l) => l.suburb === "Newtown"),
    10,
    rand,
  );
  const epping = sample(
    lots.filter((l) => l.suburb === "Epping"),
    8,
    rand,
  );
  const parra = sample(
    lots.filter((l) => l.suburb === "Parramatta"),
    6,
    rand,
  );
  const erko = sample(
    lots.filter((l) => l.suburb === "Erskineville"),
    2,
    rand,
  );
  const spellings = [
    (id: string) => id,
    (id: string) => id.replace("//", "/"),
    (id: string) => id.replace(/^(\w+)\/\/DP(\d+)$/, "Lot $1 DP $2"),
    (id: string) => id.replace(/^(\w+)\/\/DP(\d+)$/, "lot $1 dp$2"),
  ];
  const latlonRows = (ls: Lot[], prefix: string) =>
    ls.map((l, k) => {
      const [lon, lat] = centre(l);
      return [`${prefix} ${k + 1}`, l.address, fixed6(lat), fixed6(lon)];
    });
  const [e1, e2] = erko as [Lot, Lot];
  const [c1, c2] = [centre(e1), centre(e2)];
  return {
    "newtown-latlon.csv": csv(["site_name", "address", "latitude", "longitude"], latlonRows(newtown, "Newtown site")),
    "parramatta-latlon.csv": csv(
      ["site_name", "address", "latitude", "longitude"],
      latlonRows(parra, "Parramatta site"),
    ),
    "epping-lots.csv": csv(
      ["site_name", "lot_number"],
      epping.map((l, k) => [
        `Epping lot ${k + 1}`,
        (spellings[k % spellings.length] as (id: string) => string)(l.lotId),
      ]),
    ),
    "mixed-problems.csv": csv(
      ["site_name", "address", "latitude", "longitude"],
      [
        ["Good row", e1.address, fixed6(c1[1]), fixed6(c1[0])],
        ["Outside every pack (Melbourne)", "1 Collins Street, Melbourne VIC 3000", -37.8136, 144.9631],
        ["Latitude and longitude swapped", e2.address, fixed6(c2[0]), fixed6(c2[1])],
        ["Not a number", "somewhere in Newtown", "-33.89x", "151.18"],
        ["Missing longitude", "Newtown NSW 2042", -33.8978, ""],
        ["Inside a pack bbox but on no parcel (Sydney CBD)", "Martin Place, Sydney NSW 2000", -33.8679, 151.2111],
        ["Latitude out of range", "nowhere", -133.9, 151.18],
      ],
    ),
  };
}

export const SUBURBS_META_BASE = {
  title: "Greater Sydney suburbs (ABS SAL 2021)",
  licence: "CC BY 4.0",
} as const;
