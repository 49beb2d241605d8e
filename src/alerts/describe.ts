// Alerts and changes in a person's words, for the digest e-mail and the unsubscribe page: what an alert watches,
// what changed, where, from what to what, and the map view that shows it.
import type { Change } from "./diff.ts";
import type { AlertType } from "./types.ts";

/** A change as the digest lists it; the consumer may add the lot's street address, a digest the publish it came in. */
export type DigestChange = Change & {
  address?: string | null;
  publish?: { packId: string; from: string; to: string };
};

export type ChangeLines = {
  /** What changed: `Zone`, `Lot subdivided`. */
  what: string;
  /** Where: the lot (or lots) and the address when known. */
  where: string;
  old: string;
  new: string;
  /** [lng, lat] of a point on the land. */
  point: [number, number];
};

const TYPE_LABEL: Record<AlertType, string> = {
  zoning_change: "zoning",
  control_change: "planning controls",
  overlay_change: "overlays",
  lot_change: "lot boundaries",
  search_match: "saved search",
};

export const alertTypeLabel = (t: AlertType): string => TYPE_LABEL[t] ?? t;

const rec = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** What the alert watches, from its stored target (and the saved site's lot id when it watches one). */
export function alertPlace(target: unknown, savedLotId: string | null): string {
  const t = rec(target);
  if ("saved_site_id" in t) return savedLotId ? `saved site, lot ${savedLotId}` : "a saved site";
  const area = rec(t.area);
  if (typeof area.suburb === "string") return area.suburb;
  if ("polygon" in area) return "an area drawn on the map";
  const search = rec(rec(t.search).area);
  if (typeof search.suburb === "string") return `a saved search in ${search.suburb}`;
  if (typeof search.lga === "string") return `a saved search in ${search.lga}`;
  return "a saved search";
}

const FIELD_LABEL: Record<string, string> = {
  zone: "Zone",
  fsr: "Floor space ratio",
  height_m: "Height of building",
  min_lot_size_m2: "Minimum lot size",
  flood: "Flood overlay",
  bushfire: "Bushfire overlay",
  heritage: "Heritage overlay",
};

function value(field: string, v: string | number | null): string {
  if (v === null) return "none";
  if (typeof v === "string") return v;
  if (field === "height_m") return `${v} m`;
  if (field === "min_lot_size_m2") return `${v} m²`;
  if (field === "fsr") return `${v}:1`;
  if (field === "flood" || field === "bushfire" || field === "heritage") return `${v}% of the lot`;
  return String(v);
}

const ids = (list: readonly string[]): string => (list.length ? list.join(", ") : "none");

/** One change in words. */
export function describeChange(c: DigestChange): ChangeLines {
  const address = typeof c.address === "string" && c.address.trim() ? ` (${c.address.trim()})` : "";
  if (c.type === "search_match") {
    if (c.kind === "more_matches") {
      const lots = `${c.more} more ${c.more === 1 ? "lot" : "lots"}`;
      return {
        what: "More new matches for your saved search",
        where: lots,
        old: "no match",
        new: `matches ${c.search}`,
        point: c.point,
      };
    }
    return {
      what: "New match for your saved search",
      where: `lot ${c.lot_id}${address}`,
      old: "no match",
      new: `matches ${c.search}`,
      point: c.point,
    };
  }
  if (c.type === "lot_change") {
    const lots = c.before.length ? c.before : c.after;
    return {
      what: `Lot ${c.kind}`,
      where: `${lots.length > 1 ? "lots" : "lot"} ${ids(lots)}${address}`,
      old: ids(c.before),
      new: ids(c.after),
      point: c.point,
    };
  }
  return {
    what: FIELD_LABEL[c.field] ?? c.field,
    where: `lot ${c.lot_id}${address}`,
    old: value(c.field, c.old),
    new: value(c.field, c.new),
    point: c.point,
  };
}

/** The workspace on the map at this point, in the hash format of web/src/map/hash.ts (#zoom/lat/lng). */
export function mapLink(appUrl: string, [lng, lat]: readonly [number, number]): string {
  return `${appUrl}/map#17/${lat.toFixed(6)}/${lng.toFixed(6)}`;
}

/** The workspace's notifications of this alert (the web reads `notifications` from the query). */
export function notificationsLink(appUrl: string, alertId: string): string {
  return `${appUrl}/map?notifications=${encodeURIComponent(alertId)}`;
}
