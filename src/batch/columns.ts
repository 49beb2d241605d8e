// Header names to column keys, and which columns hold the location (latitude/longitude or lot number).

export const LAT_ALIASES: readonly string[] = ["latitude", "lat"];
export const LON_ALIASES: readonly string[] = ["longitude", "lon", "lng", "long"];
export const LOT_ALIASES: readonly string[] = ["lotnumber", "lot", "lotid", "lotidstring", "lotno"];
// A group of adjoining lots scored as one site (docs/design.md section 14): their ids in one cell, separated by ";".
export const GROUP_ALIASES: readonly string[] = ["lotids"];
/** What separates a group's lot ids in its cell. */
export const GROUP_SEPARATOR = ";";
export const ADDRESS_ALIASES: readonly string[] = ["address", "siteaddress", "streetaddress", "propertyaddress"];
// An address split over columns, as a property list often has it: street, then suburb, then postcode.
export const STREET_ALIASES: readonly string[] = ["street", "streetname", "addressline1", "address1"];
export const SUBURB_ALIASES: readonly string[] = ["suburb", "locality", "town"];
export const POSTCODE_ALIASES: readonly string[] = ["postcode", "postalcode", "pcode"];

export const ACCEPTED_COLUMNS = `latitude/longitude (lat, latitude, y / lon, lng, long, longitude, x), lot_number (lot, lot_id, lotidstring, lot number), a street address (address; or street and suburb, with postcode optional), or lot_ids (a group of adjoining lots scored as one site, ids split by ${GROUP_SEPARATOR})`;

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
  // A whole address in one column, or its street, suburb and postcode columns (street and suburb both needed).
  address: { whole: number } | { street: number; suburb: number; postcode: number | null } | null;
  // A group's lot ids: a row with this cell filled is a group, whatever its other location columns hold.
  group: number | null;
}

function findFirst(normalised: readonly string[], aliases: readonly string[]): number | null {
  for (const alias of aliases) {
    const i = normalised.indexOf(alias);
    if (i >= 0) return i;
  }
  return null;
}

function addressColumns(normalised: readonly string[]): LocationColumns["address"] {
  const whole = findFirst(normalised, ADDRESS_ALIASES);
  if (whole !== null) return { whole };
  const street = findFirst(normalised, STREET_ALIASES);
  const suburb = findFirst(normalised, SUBURB_ALIASES);
  if (street === null || suburb === null) return null;
  return { street, suburb, postcode: findFirst(normalised, POSTCODE_ALIASES) };
}

// Named latitude/longitude beat x/y; x/y are only used as a pair.
export function findLocationColumns(header: readonly string[]): LocationColumns {
  const normalised = header.map(normaliseHeader);
  const lot = findFirst(normalised, LOT_ALIASES);
  const lat = findFirst(normalised, LAT_ALIASES);
  const lon = findFirst(normalised, LON_ALIASES);
  const address = addressColumns(normalised);
  const group = findFirst(normalised, GROUP_ALIASES);
  if (lat !== null || lon !== null) return { lat, lon, lot, fromXY: false, address, group };
  const y = findFirst(normalised, ["y"]);
  const x = findFirst(normalised, ["x"]);
  if (x !== null && y !== null) return { lat: y, lon: x, lot, fromXY: true, address, group };
  return { lat: null, lon: null, lot, fromXY: false, address, group };
}

/** The column indices an address is read from, in the order they are joined. */
export function addressIndices(a: NonNullable<LocationColumns["address"]>): number[] {
  if ("whole" in a) return [a.whole];
  return a.postcode === null ? [a.street, a.suburb] : [a.street, a.suburb, a.postcode];
}
