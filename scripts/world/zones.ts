// The NSW Standard Instrument zones the world uses (no B or IN zones: the 2023 employment-zones reform
// retired them) and the control values each takes, as real LEPs map them.

export const ZONE_NAMES = {
  R1: "General Residential",
  R2: "Low Density Residential",
  R3: "Medium Density Residential",
  R4: "High Density Residential",
  E1: "Local Centre",
  E2: "Commercial Centre",
  E3: "Productivity Support",
  E4: "General Industrial",
  MU1: "Mixed Use",
  RE1: "Public Recreation",
  SP2: "Infrastructure",
  C2: "Environmental Conservation",
} as const;

export type ZoneCode = keyof typeof ZONE_NAMES;
export const ZONE_CODES = Object.keys(ZONE_NAMES) as ZoneCode[];

// A control's value, or null where the zone has none mapped (parks, infrastructure, centres' lot size).
export type Controls = { fsr: number | null; height: number | null; minLot: number | null };

export type Options = { fsr: readonly number[]; height: readonly number[]; minLot: readonly number[] };

/**
 * Values each zone is mapped with. A council picks one per zone (its LEP); near a station the "core" values
 * (the upper half of each list) apply to R4 and the centres, the rest the lower half.
 */
export const ZONE_CONTROLS: Record<ZoneCode, Options> = {
  R1: { fsr: [0.6, 0.75, 0.9], height: [9, 9.5, 12], minLot: [200, 250, 300] },
  R2: { fsr: [0.45, 0.5, 0.55], height: [8.5, 9, 9.5], minLot: [450, 500, 550, 600, 700] },
  R3: { fsr: [0.7, 0.75, 0.8, 0.9], height: [9.5, 11, 12], minLot: [250, 300, 400] },
  R4: { fsr: [1.5, 1.75, 2, 2.5], height: [18, 21, 24, 30], minLot: [800, 1000, 1200] },
  E1: { fsr: [1.5, 2, 2.5, 3], height: [12, 14, 18, 24], minLot: [] },
  E2: { fsr: [3, 4, 5, 6, 8], height: [40, 52, 60, 80, 120], minLot: [] },
  E3: { fsr: [1, 1.5], height: [12, 15, 16], minLot: [1000, 1500] },
  E4: { fsr: [1, 1.5], height: [12, 15, 18], minLot: [1500, 2000, 4000] },
  MU1: { fsr: [2, 2.5, 3, 4, 5], height: [20, 24, 32, 45, 60], minLot: [] },
  RE1: { fsr: [], height: [], minLot: [] },
  SP2: { fsr: [], height: [], minLot: [] },
  C2: { fsr: [], height: [8.5], minLot: [400_000] },
};

// The Central Sydney and the strategic centres' commercial cores are mapped far above a suburb's E2: Sydney LEP 2012
// maps FSR 8:1 and heights of 110 m and more in Central Sydney; Parramatta, Chatswood, North Sydney, Liverpool and
// Penrith map 6-10:1 in their city centres. Keyed by council, as a council's LEP maps its own centre.
const CENTRAL_SYDNEY: Options = { fsr: [8, 10, 12.5], height: [110, 150, 235], minLot: [] };
const STRATEGIC_CENTRE: Options = { fsr: [6, 8, 10], height: [72, 100, 150], minLot: [] };
export const CITY_CENTRE_E2: Readonly<Record<string, Options>> = {
  Sydney: CENTRAL_SYDNEY,
  Parramatta: STRATEGIC_CENTRE,
  Willoughby: STRATEGIC_CENTRE,
  "North Sydney": STRATEGIC_CENTRE,
  Liverpool: STRATEGIC_CENTRE,
  Penrith: STRATEGIC_CENTRE,
};

/** The values a zone takes in a council: a city centre's own for its E2, else the zone's. */
export function optionsIn(code: ZoneCode, lga: string): Options {
  return (code === "E2" ? CITY_CENTRE_E2[lga] : undefined) ?? ZONE_CONTROLS[code];
}

// Zones whose values rise near a station (the rest keep one value across the council).
export const BANDED: ReadonlySet<ZoneCode> = new Set(["R4", "E1", "E2", "MU1"]);

/** Index of a value in a list: `u` in [0,1) picks within the half (lower or upper, for banded zones) asked for. */
function choose(list: readonly number[], u: number, half: "all" | "lower" | "upper"): number | null {
  if (list.length === 0) return null;
  const mid = Math.ceil(list.length / 2);
  const [lo, hi] = half === "lower" ? [0, mid] : half === "upper" ? [list.length - mid, list.length] : [0, list.length];
  return list[lo + Math.floor(u * (hi - lo))] as number;
}

/** A council's controls for a zone; `core` for the station core of a banded zone; draws in [0,1) per control. */
export function zoneControls(
  code: ZoneCode,
  lga: string,
  core: boolean,
  draws: readonly [number, number, number],
): Controls {
  const o = optionsIn(code, lga);
  const half = BANDED.has(code) ? (core ? "upper" : "lower") : "all";
  return {
    fsr: choose(o.fsr, draws[0], half),
    height: choose(o.height, draws[1], half),
    minLot: choose(o.minLot, draws[2], "all"),
  };
}

export function fsrLabel(v: number): string {
  return `${v}:1`;
}
export function heightLabel(v: number): string {
  return `${v} m`;
}
export function lotLabel(v: number): string {
  return `${v} m²`;
}
