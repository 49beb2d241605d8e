// Header names to column keys, and which columns hold the location (latitude/longitude or lot number).

export const LAT_ALIASES: readonly string[] = ["latitude", "lat"];
export const LON_ALIASES: readonly string[] = ["longitude", "lon", "lng", "long"];
export const LOT_ALIASES: readonly string[] = ["lotnumber", "lot", "lotid", "lotidstring", "lotno"];

export const ACCEPTED_COLUMNS =
  "latitude/longitude (lat, latitude, y / lon, lng, long, longitude, x) or lot_number (lot, lot_id, lotidstring, lot number)";

// "Latitude (GDA2020)", " LAT", "Lot Number", "lot_number" and "LotNumber" match their aliases.
export function normaliseHeader(name: string): string {
  return name
    .replace(/\([^)]*\)/g, "")
    .toLowerCase()
    .replace(/[\s_.-]+/g, "");
}

// Trimmed header spelling; blank names become "column N" and repeats get " (2)", " (3)".
export function columnKeys(header: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, i) => {
    const base = raw.trim() === "" ? `column ${i + 1}` : raw.trim();
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

export interface LocationColumns {
  lat: number | null; // column index
  lon: number | null;
  lot: number | null;
  fromXY: boolean; // latitude/longitude came from y/x columns
}

function findFirst(normalised: readonly string[], aliases: readonly string[]): number | null {
  for (const alias of aliases) {
    const i = normalised.indexOf(alias);
    if (i >= 0) return i;
  }
  return null;
}

// Named latitude/longitude beat x/y; x/y are only used as a pair.
export function findLocationColumns(header: readonly string[]): LocationColumns {
  const normalised = header.map(normaliseHeader);
  const lot = findFirst(normalised, LOT_ALIASES);
  const lat = findFirst(normalised, LAT_ALIASES);
  const lon = findFirst(normalised, LON_ALIASES);
  if (lat !== null || lon !== null) return { lat, lon, lot, fromXY: false };
  const y = findFirst(normalised, ["y"]);
  const x = findFirst(normalised, ["x"]);
  if (x !== null && y !== null) return { lat: y, lon: x, lot, fromXY: true };
  return { lat: null, lon: null, lot, fromXY: false };
}
