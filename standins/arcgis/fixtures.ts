// The stand-in's recorded services, generated deterministically. Field names and types are copied from live answers of
// the NSW services (MarkHanoi/Product_Rediness_08, audit/geo-expansion/2026-09-02/transcripts-au/: nsw-lot-townhall.json,
// nsw-epi-layer{1,2,5}-*.json, nsw-epi-root.json, nsw-lppt-root.json). The GEOMETRY IS SYNTHETIC: four blocks of lots,
// their zoning, controls, heritage and bush fire prone land laid on a few made-up streets inside the real suburb of
// Hunters Hill (Hunters Hill Council). The attribute values are made up in the services' own shapes. The Lot Size,
// Heritage and Bush Fire Prone Land fields follow packs/README.md's mapping and were not read from a live answer.
// maxRecordCount is small (the real services answer 2,000 and 10,000) so that a fixture of a hundred lots pages.
import type { Attributes, EsriField, FixtureFeature, FixtureLayer, FixtureService, Ring } from "./model.ts";

// South-west corner of the blocks, inside Hunters Hill (its label point is 151.13778, -33.82694).
const LON0 = 151.136;
const LAT0 = -33.829;
// Metres per degree at this latitude (about -33.83).
const M_PER_LON = 92_450;
const M_PER_LAT = 110_900;

const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

/** A clockwise rectangle (Esri's outer ring) over [x0, x1] x [y0, y1] metres east and north of the corner. */
export function rectRing(x0: number, y0: number, x1: number, y1: number): Ring {
  const p = (x: number, y: number): [number, number] => [round7(LON0 + x / M_PER_LON), round7(LAT0 + y / M_PER_LAT)];
  return [p(x0, y0), p(x0, y1), p(x1, y1), p(x1, y0), p(x0, y0)];
}

/** The same rectangle anticlockwise: a hole. */
export const holeRing = (x0: number, y0: number, x1: number, y1: number): Ring => rectRing(x0, y0, x1, y1).reverse();

const DAY = 86_400_000;
const date = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

const oid = (name: string, alias = name): EsriField => ({ name, type: "esriFieldTypeOID", alias });
const str = (name: string, length: number, alias = name): EsriField => ({
  name,
  type: "esriFieldTypeString",
  alias,
  length,
});
const int = (name: string, alias = name): EsriField => ({ name, type: "esriFieldTypeInteger", alias });
const small = (name: string, alias = name): EsriField => ({ name, type: "esriFieldTypeSmallInteger", alias });
const dbl = (name: string, alias = name): EsriField => ({ name, type: "esriFieldTypeDouble", alias });
const dat = (name: string, alias = name): EsriField => ({ name, type: "esriFieldTypeDate", alias, length: 8 });

// The Lot layer of NSW_Land_Parcel_Property_Theme (nsw-lot-townhall.json), in its order.
export const LOT_FIELDS: EsriField[] = [
  oid("objectid", "OBJECTID"),
  int("cadid"),
  dat("createdate"),
  dat("modifieddate"),
  int("controllingauthorityoid"),
  int("planoid"),
  int("plannumber"),
  str("planlabel", 15),
  small("itstitlestatus", "ITSTitleStatus"),
  int("itslotid"),
  small("stratumlevel", "StratumLevel"),
  small("hasstratum", "HasStratum"),
  int("classsubtype", "ClassSubtype"),
  str("lotnumber", 6),
  str("sectionnumber", 3),
  dbl("planlotarea"),
  str("planlotareaunits", 6),
  dat("startdate"),
  dat("enddate"),
  dat("lastupdate"),
  int("msoid"),
  int("centroidid"),
  str("shapeuuid", 38),
  str("changetype", 2),
  str("lotidstring", 50),
  str("processstate", 5),
  str("urbanity", 2),
  dbl("Shape__Length", "shape_Length"),
  dbl("Shape__Area", "shape_Area"),
];

// The fields every EPI_Primary_Planning_Layers layer shares (nsw-epi-layer{1,2,5}-*.json), before its own.
const EPI_HEAD: EsriField[] = [
  oid("OBJECTID"),
  str("EPI_NAME", 150),
  str("LGA_NAME", 50),
  dat("PUBLISHED_DATE"),
  dat("COMMENCED_DATE"),
  dat("CURRENCY_DATE"),
  str("AMENDMENT", 150),
  str("MAP_TYPE", 4),
  str("MAP_NAME", 100),
  str("LAY_NAME", 100),
  str("LAY_CLASS", 100),
];
const EPI_REFS: EsriField[] = [str("LEGIS_REF_AREA", 50), str("LEGIS_REF_CLAUSE", 50), str("LEGIS_REF_VALUE", 50)];
const EPI_TAIL: EsriField[] = [str("PCO_REF_KEY", 50), str("EPI_TYPE", 5)];

// Land Zoning (layer 2): SYM_CODE is a string ("R2"); FSR (layer 1) and Height of Building (layer 5): an integer.
export const ZONING_FIELDS = [...EPI_HEAD, str("SYM_CODE", 10), str("PURPOSE", 400), ...EPI_REFS, ...EPI_TAIL];
export const FSR_FIELDS = [...EPI_HEAD, int("SYM_CODE"), dbl("FSR"), ...EPI_REFS, ...EPI_TAIL];
export const HEIGHT_FIELDS = [
  ...EPI_HEAD,
  int("SYM_CODE"),
  dbl("MAX_B_H"),
  ...EPI_REFS,
  str("UNITS", 10),
  ...EPI_TAIL,
  dbl("MAX_B_H_M"),
  dbl("MAX_B_H_RL"),
];
export const LOT_SIZE_FIELDS = [
  ...EPI_HEAD,
  int("SYM_CODE"),
  dbl("LOT_SIZE"),
  ...EPI_REFS,
  str("UNITS", 10),
  ...EPI_TAIL,
];
export const HERITAGE_FIELDS = [
  ...EPI_HEAD,
  str("SYM_CODE", 10),
  str("H_ID", 20),
  str("H_NAME", 254),
  str("SIG", 20),
  ...EPI_REFS,
  ...EPI_TAIL,
];
export const BUSHFIRE_FIELDS = [
  oid("OBJECTID"),
  small("Category"),
  str("d_Category", 50),
  dbl("Shape__Area"),
  dbl("Shape__Length"),
];

const EPI_NAME = "Hunters Hill Local Environmental Plan 2012";

function epi(mapType: string, mapName: string, layName: string, layClass: string): Attributes {
  return {
    EPI_NAME,
    LGA_NAME: "HUNTERS HILL",
    PUBLISHED_DATE: date("2012-12-21"),
    COMMENCED_DATE: date("2012-12-21"),
    CURRENCY_DATE: date("2026-10-17"),
    AMENDMENT: null,
    MAP_TYPE: mapType,
    MAP_NAME: mapName,
    LAY_NAME: layName,
    LAY_CLASS: layClass,
    LEGIS_REF_AREA: null,
    LEGIS_REF_CLAUSE: null,
    LEGIS_REF_VALUE: null,
    PCO_REF_KEY: "2012-0000",
    EPI_TYPE: "LEP",
  };
}

// Lots: 4 blocks of 2 rows of 14 lots (15 m by 40 m), blocks 80 m deep with 20 m streets between them.
const LOT_W = 15;
const LOT_D = 40;
const BLOCK = 100;

type LotPlan = { plan: number; lot: string; rings: Ring[] };

function lotPlans(): LotPlan[] {
  const out: LotPlan[] = [];
  for (let b = 0; b < 4; b++) {
    for (let r = 0; r < 2; r++) {
      const plan = 1_200_100 + 2 * b + r;
      const y0 = b * BLOCK + r * LOT_D;
      for (let i = 0; i < 14; i++) {
        const x0 = i * LOT_W;
        if (b === 0 && r === 0 && i === 1) continue; // part of lot 1's hole-bearing lot below
        if (b === 2 && r === 0 && i === 13) continue; // the second part of block 1's lot 14
        if (b === 0 && r === 0 && i === 0) {
          // One lot over two widths with a 10 m square hole: the hole is a lot of its own (an easement's strip).
          out.push({ plan, lot: "1", rings: [rectRing(0, 0, 30, LOT_D), holeRing(10, 15, 20, 25)] });
          out.push({ plan, lot: "2", rings: [rectRing(10, 15, 20, 25)] });
          continue;
        }
        if (b === 1 && r === 0 && i === 13) {
          // A lot of two parts on either side of a street.
          out.push({
            plan,
            lot: "14",
            rings: [rectRing(x0, y0, x0 + LOT_W, y0 + LOT_D), rectRing(x0, 2 * BLOCK, x0 + LOT_W, 2 * BLOCK + LOT_D)],
          });
          continue;
        }
        out.push({ plan, lot: String(i + 1), rings: [rectRing(x0, y0, x0 + LOT_W, y0 + LOT_D)] });
      }
    }
  }
  return out;
}

/** Metres² of a ring set (outer rings less holes), by the shoelace over the local metric frame. */
function areaM2(rings: readonly Ring[]): number {
  let a = 0;
  for (const ring of rings) {
    let s = 0;
    for (let k = 0; k + 1 < ring.length; k++) {
      const [x1, y1] = ring[k] as [number, number];
      const [x2, y2] = ring[k + 1] as [number, number];
      s += x1 * M_PER_LON * (y2 * M_PER_LAT) - x2 * M_PER_LON * (y1 * M_PER_LAT);
    }
    a -= s / 2; // clockwise outer rings have a negative shoelace sum
  }
  return Math.round(a * 10) / 10;
}

function lotFeatures(): FixtureFeature[] {
  return lotPlans().map((p, k) => {
    const area = areaM2(p.rings);
    const planlabel = `DP${p.plan}`;
    return {
      attributes: {
        objectid: 40_001 + k * 3,
        cadid: 105_600_000 + k,
        createdate: date("2003-09-24") + k * DAY,
        modifieddate: date("2015-10-26"),
        controllingauthorityoid: 2,
        planoid: 1_800_000 + (p.plan % 1000),
        plannumber: p.plan,
        planlabel,
        itstitlestatus: 1,
        itslotid: 3_970_000 + k,
        stratumlevel: 0,
        hasstratum: 0,
        classsubtype: 1,
        lotnumber: p.lot,
        sectionnumber: null,
        planlotarea: k % 3 === 0 ? area : null,
        planlotareaunits: k % 3 === 0 ? "m2" : null,
        startdate: date("2015-10-26"),
        enddate: 32_503_680_000_000,
        lastupdate: date("2015-10-26") + 21_073_066,
        msoid: 2_800_000 + k,
        centroidid: null,
        shapeuuid: `00000000-0000-4000-8000-${String(k).padStart(12, "0")}`,
        changetype: "M",
        lotidstring: `${p.lot}//${planlabel}`,
        processstate: null,
        urbanity: "U",
        Shape__Length: 2 * (LOT_W + LOT_D) * 1.2,
        // Web Mercator square metres, about 1.45 times the true area at Sydney (why packs read planlotarea instead).
        Shape__Area: Math.round(area * 1.45 * 1000) / 1000,
      },
      rings: p.rings,
    };
  });
}

const features = (rows: { attrs: Attributes; rings: Ring[] }[], oidField: string, first: number): FixtureFeature[] =>
  rows.map((r, k) => ({ attributes: { [oidField]: first + k, ...r.attrs }, rings: r.rings }));

function zoning(): FixtureFeature[] {
  const zone = (code: string, cls: string) => ({
    ...epi("LZN", "Land Zoning Map", "Zone", cls),
    SYM_CODE: code,
    PURPOSE: code === "SP2" ? "Educational Establishment" : null,
  });
  return features(
    [
      // R2 with a hole where the SP2 school stands.
      {
        attrs: zone("R2", "Low Density Residential"),
        rings: [rectRing(0, -10, 210, 190), holeRing(75, 100, 135, 140)],
      },
      { attrs: zone("SP2", "Infrastructure"), rings: [rectRing(75, 100, 135, 140)] },
      { attrs: zone("R3", "Medium Density Residential"), rings: [rectRing(0, 190, 150, 290)] },
      { attrs: zone("E1", "Local Centre"), rings: [rectRing(150, 190, 210, 290)] },
      { attrs: zone("RE1", "Public Recreation"), rings: [rectRing(0, 290, 210, 390)] },
    ],
    "OBJECTID",
    790_801,
  );
}

function fsr(): FixtureFeature[] {
  const f = (v: number, cls: string, sym: number) => ({
    ...epi("FSR", "Floor Space Ratio Map", "Maximum Floor Space Ratio (n:1)", cls),
    SYM_CODE: sym,
    FSR: v,
    LEGIS_REF_CLAUSE: "Clause 4.4",
  });
  return features(
    [
      { attrs: f(0.5, "0.5-0.59", 22), rings: [rectRing(0, -10, 210, 190)] },
      { attrs: f(0.75, "0.75-0.79", 26), rings: [rectRing(0, 190, 150, 290)] },
      { attrs: f(1.5, "1.5-1.99", 41), rings: [rectRing(150, 190, 210, 290)] },
    ],
    "OBJECTID",
    9_701,
  );
}

function height(): FixtureFeature[] {
  const h = (m: number, cls: string, sym: number) => ({
    ...epi("HOB", "Height of Buildings Map", "Maximum Building Height (m)", cls),
    SYM_CODE: sym,
    MAX_B_H: m,
    LEGIS_REF_CLAUSE: "Clause 4.3",
    UNITS: "m",
    MAX_B_H_M: m,
    MAX_B_H_RL: null,
  });
  return features(
    [
      { attrs: h(8.5, "8.5-8.9", 12), rings: [rectRing(0, -10, 210, 190)] },
      { attrs: h(9.5, "9.5-11.9", 14), rings: [rectRing(0, 190, 150, 290)] },
      { attrs: h(12, "12-12.9", 17), rings: [rectRing(150, 190, 210, 290)] },
    ],
    "OBJECTID",
    246_201,
  );
}

function lotSize(): FixtureFeature[] {
  const s = (m2: number, sym: number) => ({
    ...epi("LSZ", "Lot Size Map", "Minimum Lot Size (sq m)", `${m2}`),
    SYM_CODE: sym,
    LOT_SIZE: m2,
    LEGIS_REF_CLAUSE: "Clause 4.1",
    UNITS: "m2",
  });
  return features(
    [
      // One feature of two parts with no control between them.
      { attrs: s(700, 31), rings: [rectRing(0, -10, 70, 190), rectRing(140, -10, 210, 190)] },
      { attrs: s(600, 29), rings: [rectRing(0, 190, 150, 290)] },
    ],
    "OBJECTID",
    51_001,
  );
}

function heritage(): FixtureFeature[] {
  const h = (cls: string, id: string | null, name: string | null, sig: string) => ({
    ...epi("HER", "Heritage Map", cls.startsWith("Item") ? "Heritage Item" : "Heritage Conservation Area", cls),
    SYM_CODE: cls.startsWith("Item") ? "Item" : "CA",
    H_ID: id,
    H_NAME: name,
    SIG: sig,
  });
  return features(
    [
      { attrs: h("Item - General", "I412", "House (synthetic)", "Local"), rings: [rectRing(45, 140, 60, 180)] },
      {
        attrs: h("Conservation Area - General", "C7", "Synthetic Street Conservation Area", "Local"),
        rings: [rectRing(60, 40, 150, 80)],
      },
    ],
    "OBJECTID",
    30_101,
  );
}

function bushfire(): FixtureFeature[] {
  const b = (cat: number, label: string) => ({
    Category: cat,
    d_Category: label,
    Shape__Area: 0,
    Shape__Length: 0,
  });
  const rows: { attrs: Attributes; rings: Ring[] }[] = [];
  // The park's bushland in four pieces, and its 30 m buffer in four pieces, cutting into the lots south of it.
  for (let q = 0; q < 4; q++) {
    const x0 = q * 52.5;
    rows.push({ attrs: b(1, "Vegetation Category 1"), rings: [rectRing(x0, 300, x0 + 52.5, 380)] });
  }
  for (let q = 0; q < 4; q++) {
    const x0 = q * 52.5;
    rows.push({ attrs: b(3, "Vegetation Buffer"), rings: [rectRing(x0, 270, x0 + 52.5, 300)] });
  }
  return features(rows, "OBJECTID", 7_001);
}

type LayerBase = Pick<FixtureLayer, "id" | "name" | "fields" | "objectIdField" | "displayField">;

function layer(
  base: LayerBase,
  features: FixtureFeature[],
  opts: Partial<Pick<FixtureLayer, "maxRecordCount" | "supportsPagination" | "lastEditDate" | "wkid" | "onlyNative">>,
): FixtureLayer {
  return {
    ...base,
    maxRecordCount: opts.maxRecordCount ?? 2,
    supportsPagination: opts.supportsPagination ?? true,
    lastEditDate: opts.lastEditDate ?? date("2026-11-14"),
    wkid: opts.wkid ?? 4283,
    onlyNative: opts.onlyNative ?? false,
    features,
  };
}

const epiLayer = (id: number, name: string, fields: EsriField[]): LayerBase => ({
  id,
  name,
  fields,
  objectIdField: "OBJECTID",
  displayField: "EPI_NAME",
});

/** The three services, as their real counterparts name them; layer ids as the live layer lists give them. */
export function arcgisServices(): FixtureService[] {
  return [
    {
      path: "NSW_Land_Parcel_Property_Theme/FeatureServer",
      wkid: 102100,
      copyrightText: "",
      layers: [
        layer(
          { id: 8, name: "Lot", fields: LOT_FIELDS, objectIdField: "objectid", displayField: "lotidstring" },
          lotFeatures(),
          { maxRecordCount: 40, wkid: 102100, lastEditDate: date("2026-11-28") + 37_000_000 },
        ),
      ],
    },
    {
      path: "Planning/EPI_Primary_Planning_Layers/MapServer",
      wkid: 4283,
      copyrightText: "",
      layers: [
        layer(epiLayer(0, "Heritage", HERITAGE_FIELDS), heritage(), { lastEditDate: date("2026-10-17") }),
        layer(epiLayer(1, "Floor Space Ratio", FSR_FIELDS), fsr(), { lastEditDate: date("2026-10-17") }),
        layer(epiLayer(2, "Land Zoning", ZONING_FIELDS), zoning(), { lastEditDate: date("2026-11-14") }),
        layer(epiLayer(4, "Lot Size", LOT_SIZE_FIELDS), lotSize(), { lastEditDate: date("2026-10-17") }),
        // The live service names it in the singular (nsw-epi-root.json).
        layer(epiLayer(5, "Height of Building", HEIGHT_FIELDS), height(), { lastEditDate: date("2026-10-17") }),
      ],
    },
    {
      path: "Hosted/NSW_BushFire_Prone_Land/FeatureServer",
      wkid: 7844,
      copyrightText: "NSW Rural Fire Service",
      layers: [
        layer(
          {
            id: 0,
            name: "Bush Fire Prone Land",
            fields: BUSHFIRE_FIELDS,
            objectIdField: "OBJECTID",
            displayField: "d_Category",
          },
          bushfire(),
          // An old layer (more than 12 months before the others), served only in GDA2020, without pagination.
          {
            maxRecordCount: 3,
            supportsPagination: false,
            wkid: 7844,
            onlyNative: true,
            lastEditDate: date("2025-06-30"),
          },
        ),
      ],
    },
  ];
}
