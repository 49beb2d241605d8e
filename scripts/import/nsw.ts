// The NSW services and layers an import reads (docs/design.md section 15): each layer by its service's name for it,
// the pack layer it becomes, its licence and attribution. Service roots as probed live on 2 September 2026
// (MarkHanoi/Product_Rediness_08, audit/geo-expansion/2026-09-02/au-sweep.md); licences from data.nsw.gov.au's records.
import type { LayerName } from "../../src/packs/upload/layer-specs.ts";

export type ServiceKey = "cadastre" | "planning" | "bushfire";

export const DEFAULT_URLS: Record<ServiceKey, string> = {
  cadastre: "https://portal.spatial.nsw.gov.au/server/rest/services/NSW_Land_Parcel_Property_Theme/FeatureServer",
  planning:
    "https://mapprod3.environment.nsw.gov.au/arcgis/rest/services/Planning/EPI_Primary_Planning_Layers/MapServer",
  bushfire: "https://portal.spatial.nsw.gov.au/server/rest/services/Hosted/NSW_BushFire_Prone_Land/FeatureServer",
};

export type NswLayer = {
  pack: LayerName;
  service: ServiceKey;
  /** Names the service may give it, the usual first. */
  names: readonly string[];
  /** Absent from some releases of the service: skipped, not refused. */
  optional?: boolean;
  licence: string;
  attribution: string;
};

const SPATIAL = "© State of New South Wales (Spatial Services, Department of Customer Service), NSW Cadastre";
const PLANNING = "© State of New South Wales (Department of Planning, Housing and Infrastructure), NSW Planning Portal";
const RFS = "© State of New South Wales (NSW Rural Fire Service), Bush Fire Prone Land";

export const NSW_LAYERS: readonly NswLayer[] = [
  { pack: "parcels", service: "cadastre", names: ["Lot"], licence: "CC BY 4.0", attribution: SPATIAL },
  { pack: "zoning", service: "planning", names: ["Land Zoning"], licence: "CC BY 4.0", attribution: PLANNING },
  { pack: "fsr", service: "planning", names: ["Floor Space Ratio"], licence: "CC BY 4.0", attribution: PLANNING },
  {
    pack: "height",
    service: "planning",
    // The live service says "Height of Building" (nsw-epi-root.json); its map is "Height of Buildings Map".
    names: ["Height of Buildings", "Height of Building"],
    licence: "CC BY 4.0",
    attribution: PLANNING,
  },
  { pack: "lot_size", service: "planning", names: ["Lot Size"], licence: "CC BY 4.0", attribution: PLANNING },
  { pack: "heritage", service: "planning", names: ["Heritage"], licence: "CC BY 4.0", attribution: PLANNING },
  {
    pack: "flood",
    service: "planning",
    names: ["Flood Planning", "Flood Planning Area"],
    optional: true,
    licence: "CC BY 4.0",
    attribution: PLANNING,
  },
  { pack: "bushfire", service: "bushfire", names: ["Bush Fire Prone Land"], licence: "CC BY 4.0", attribution: RFS },
];
