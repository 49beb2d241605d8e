// Per-row location checks whose messages become `site_error` details.
import { startsWithHouseNumber } from "../geocode/address-key.ts";

export const AUSTRALIA_BBOX = { minLon: 112, maxLon: 154, minLat: -44, maxLat: -9 } as const;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

// Strict number parsing: "" and "12abc" are not numbers; a typographic minus and a trailing degree sign are accepted.
export function parseCoordinate(raw: string, decimalComma: boolean): number | null {
  if (NUMBER.test(raw)) return Number(raw); // the common case, without allocating
  let s = raw
    .trim()
    .replace(/\u2212/g, "-")
    .replace(/\s*°$/, "");
  if (decimalComma && DECIMAL_COMMA.test(s)) s = s.replace(",", ".");
  if (!NUMBER.test(s)) return null;
  const v = Number(s);
  return Number.isFinite(v) ? v : null;
}

function inAustralianLon(v: number): boolean {
  return v >= AUSTRALIA_BBOX.minLon && v <= AUSTRALIA_BBOX.maxLon;
}

function inAustralianLat(v: number): boolean {
  return v >= AUSTRALIA_BBOX.minLat && v <= AUSTRALIA_BBOX.maxLat;
}

export interface LatLonCheck {
  lat: number | null;
  lon: number | null;
  problem?: string;
}

export function checkLatLon(latRaw: string, lonRaw: string, decimalComma: boolean): LatLonCheck {
  const latText = latRaw.trim();
  const lonText = lonRaw.trim();
  if (latText === "" && lonText === "") return { lat: null, lon: null, problem: "latitude and longitude are empty" };
  const lat = latText === "" ? null : parseCoordinate(latText, decimalComma);
  const lon = lonText === "" ? null : parseCoordinate(lonText, decimalComma);
  const issues: string[] = [];
  if (latText === "") issues.push("latitude is empty");
  else if (lat === null) issues.push(`latitude '${latText}' is not a number`);
  if (lonText === "") issues.push("longitude is empty");
  else if (lon === null) issues.push(`longitude '${lonText}' is not a number`);
  if (lat === null || lon === null) return { lat, lon, problem: issues.join("; ") };

  if (inAustralianLon(lat) && inAustralianLat(lon)) {
    return {
      lat,
      lon,
      problem: `latitude and longitude look swapped: latitude ${latText}, longitude ${lonText} (in Australia latitude is -44 to -9 and longitude 112 to 154)`,
    };
  }
  if (lat < -90 || lat > 90) issues.push(`latitude ${latText} is out of range (-90 to 90)`);
  if (lon < -180 || lon > 180) issues.push(`longitude ${lonText} is out of range (-180 to 180)`);
  if (issues.length > 0) return { lat, lon, problem: issues.join("; ") };

  if (inAustralianLon(lon) && inAustralianLat(-lat)) {
    return {
      lat,
      lon,
      problem: `latitude ${latText} is north of the equator; Australian latitudes are negative (did you mean -${latText.replace(/^\+/, "")}?)`,
    };
  }
  if (!inAustralianLon(lon) || !inAustralianLat(lat)) {
    return {
      lat,
      lon,
      problem: `the point (latitude ${latText}, longitude ${lonText}) is outside Australia (latitude -44 to -9, longitude 112 to 154)`,
    };
  }
  return { lat, lon };
}

export interface LotCheck {
  lotNumber: string;
  problem?: string;
}

export function checkLotNumber(raw: string): LotCheck {
  const lotNumber = raw.trim();
  return lotNumber === "" ? { lotNumber, problem: "lot number is empty" } : { lotNumber };
}

export interface AddressCheck {
  address: string;
  problem?: string;
}

/** The address from its columns (one, or street, suburb and postcode), blank parts left out. */
export function checkAddress(parts: readonly string[]): AddressCheck {
  const address = parts
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .join(", ");
  if (address === "") return { address, problem: "address is empty" };
  if (!startsWithHouseNumber(address))
    return {
      address,
      problem: `address "${address}" has no house number: an address starts with one (23 Pembroke Street, Epping)`,
    };
  return { address };
}
