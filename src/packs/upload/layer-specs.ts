// Pack layers and how official Australian field names map to each layer's fields (builder CLI and uploads).
import { normaliseLotId } from "../lot-id.ts";

export type LayerSpec = {
  kind: "polygon" | "point";
  fields: readonly string[];
  categoryField?: string;
  syntheticField?: string;
  map(p: Record<string, unknown>, options: BuildOptions): unknown[];
};

// stateCode abbreviates a state name ("New South Wales" -> "NSW"); the gazetteer also does so when it reads.
export type BuildOptions = { defaultState?: string; stateCode?: (state: string) => string | null };

// Zoning, FSR, height of building and lot size are separate layers, as the NSW Planning Portal publishes them.
export const LAYER_NAMES = [
  "suburbs",
  "parcels",
  "zoning",
  "fsr",
  "height",
  "lot_size",
  "flood",
  "bushfire",
  "heritage",
  "transport",
] as const;
export type LayerName = (typeof LAYER_NAMES)[number];

// Property lookup that ignores case, since agencies publish both LOTIDSTRING and lotidstring.
function pick(p: Record<string, unknown>, ...names: string[]): unknown {
  for (const n of names) if (p[n] !== undefined && p[n] !== null && p[n] !== "") return p[n];
  const lower = new Map(Object.keys(p).map((k) => [k.toLowerCase(), k] as const));
  for (const n of names) {
    const k = lower.get(n.toLowerCase());
    if (k !== undefined && p[k] !== undefined && p[k] !== null && p[k] !== "") return p[k];
  }
  return null;
}

function str(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v).trim() || null;
}

function num(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v.replace(/[^0-9.eE+-]/g, ""));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

// ABS names carry a bracketed disambiguator ("Newtown (NSW)") that users never type.
function suburbName(v: unknown): string | null {
  const s = str(v);
  return s === null ? null : s.replace(/\s*\([^)]*\)\s*$/, "");
}

const SPECS: Record<LayerName, LayerSpec> = {
  suburbs: {
    kind: "polygon",
    fields: ["name", "state", "postcode", "sal_code", "lga", "label_lon", "label_lat"],
    map: (p, o) => {
      const st = str(pick(p, "STE_NAME21", "STATE", "state", "STE_CODE21"));
      return [
        suburbName(pick(p, "SAL_NAME21", "name", "NAME", "suburb")),
        (st ? (o.stateCode?.(st) ?? st) : null) ?? o.defaultState ?? null,
        str(pick(p, "postcode", "POSTCODE", "POA_CODE21")),
        str(pick(p, "SAL_CODE21", "sal_code", "id")),
        str(pick(p, "lga", "LGA_NAME", "LGA_NAME24", "LGA_NAME21")),
        num(pick(p, "lx", "label_lon")),
        num(pick(p, "ly", "label_lat")),
      ];
    },
  },
  parcels: {
    kind: "polygon",
    // What stands on the lot, optional (issue 50, item 5): without it the score states what it assumes.
    fields: [
      "lot_id",
      "area_m2",
      "cadid",
      "plan_label",
      "lot_number",
      "address",
      "existing_use",
      "dwellings",
      "strata_plan",
      "units",
      "floor_space_m2",
      "frontage_m",
    ],
    // NSW cadastre: lotidstring "100//DP1048011", else built from lotnumber, sectionnumber and planlabel.
    // Shape__Area is in the service's projection units (Web Mercator m², ~1.45x at Sydney), so area comes
    // from planlotarea or is measured from the geometry.
    map: (p) => {
      const raw = str(pick(p, "lotidstring", "lot_id", "lotid"));
      const lotNumber = str(pick(p, "lotnumber", "lot_number"));
      const plan = str(pick(p, "planlabel", "plan_label"));
      const section = str(pick(p, "sectionnumber", "section_number")) ?? "";
      const built = raw ?? (lotNumber && plan ? `${lotNumber}/${section}/${plan}` : null);
      return [
        built === null ? null : (normaliseLotId(built) ?? built),
        num(pick(p, "planlotarea", "area_m2")),
        str(pick(p, "cadid")),
        plan,
        lotNumber,
        // An uploaded lot's street address, so /geocode/suggest finds it (cadastre files have none).
        str(pick(p, "address")),
        // A Shapefile's field names stop at 10 characters: each has a short name too.
        str(pick(p, "existing_use", "exist_use")),
        num(pick(p, "dwellings")),
        str(pick(p, "strata_plan", "strataplan")),
        num(pick(p, "units")),
        num(pick(p, "floor_space_m2", "floor_m2")),
        // The lot's boundary on the street, where measured (an import reads it from the gaps between lots).
        num(pick(p, "frontage_m", "frontage")),
      ];
    },
  },
  zoning: {
    kind: "polygon",
    fields: ["zone", "zone_name", "epi_name", "lga"],
    categoryField: "zone",
    // Land Zoning (MAP_TYPE LZN): SYM_CODE "R2", LAY_CLASS "Low Density Residential".
    map: (p) => [
      str(pick(p, "SYM_CODE", "zone")),
      str(pick(p, "LAY_CLASS", "zone_name")),
      str(pick(p, "EPI_NAME", "epi_name")),
      str(pick(p, "LGA_NAME", "lga")),
    ],
  },
  fsr: {
    kind: "polygon",
    fields: ["fsr", "label", "epi_name"],
    categoryField: "fsr",
    map: (p) => [
      num(pick(p, "FSR", "fsr")),
      str(pick(p, "LAY_CLASS", "SYM_CODE", "label")),
      str(pick(p, "EPI_NAME", "epi_name")),
    ],
  },
  height: {
    kind: "polygon",
    fields: ["height_m", "label", "clause", "epi_name"],
    categoryField: "height_m",
    // Height of Building: MAX_B_H_M 22.0, LAY_CLASS "21-22.9", LEGIS_REF_CLAUSE "Clause 4.3".
    map: (p) => [
      num(pick(p, "MAX_B_H_M", "MAX_B_H", "height_m")),
      str(pick(p, "LAY_CLASS", "SYM_CODE", "label")),
      str(pick(p, "LEGIS_REF_CLAUSE", "clause")),
      str(pick(p, "EPI_NAME", "epi_name")),
    ],
  },
  lot_size: {
    kind: "polygon",
    fields: ["min_lot_m2", "label", "epi_name"],
    categoryField: "min_lot_m2",
    map: (p) => [
      num(pick(p, "LOT_SIZE", "min_lot_m2")),
      str(pick(p, "LAY_CLASS", "SYM_CODE", "label")),
      str(pick(p, "EPI_NAME", "epi_name")),
    ],
  },
  flood: {
    kind: "polygon",
    fields: ["category", "name"],
    categoryField: "category",
    map: (p) => [
      str(pick(p, "category", "LAY_CLASS", "FLOOD_CAT")) ?? "Flood planning area",
      str(pick(p, "name", "LAY_NAME")),
    ],
  },
  bushfire: {
    kind: "polygon",
    fields: ["category"],
    categoryField: "category",
    map: (p) => [str(pick(p, "category", "d_Category", "CATEGORY", "LAY_CLASS")) ?? "Bush fire prone land"],
  },
  heritage: {
    kind: "polygon",
    fields: ["name", "significance", "item_id", "class", "epi_name"],
    categoryField: "significance",
    // LAY_CLASS ("Item - General", "Conservation Area - General") and EPI_NAME as on every EPI layer; the
    // item fields H_NAME, SIG and H_ID follow the Planning Portal's heritage layer.
    map: (p) => [
      str(pick(p, "name", "H_NAME", "ITEM_NAME", "LAY_NAME")),
      str(pick(p, "significance", "SIG", "SIGNIFICANCE")) ?? "Local",
      str(pick(p, "item_id", "H_ID", "ITEM_NO")),
      str(pick(p, "class", "LAY_CLASS")),
      str(pick(p, "EPI_NAME", "epi_name")),
    ],
  },
  transport: {
    kind: "point",
    fields: ["name", "mode", "stop_id", "synthetic"],
    categoryField: "mode",
    syntheticField: "synthetic",
    map: (p) => [
      str(pick(p, "name", "stop_name", "STOP_NAME")),
      str(pick(p, "mode", "MODE", "route_type")) ?? "bus",
      str(pick(p, "stop_id", "id")),
      pick(p, "synthetic") === true,
    ],
  },
};

export function layerSpec(name: LayerName): LayerSpec {
  return SPECS[name];
}
