// Notifications and alerts in a person's words (pure): what changed, where, old → new, the pack versions.
import type { BBox } from "../map/controller.ts";

/** Where the workspace should take the person: the map to the place, the Site panel to the lot's facts. */
export type LotTarget = { bbox: BBox; query: string; label: string };

const TYPE_LABELS: Record<string, string> = {
  zoning_change: "Zoning change",
  control_change: "Planning control change",
  overlay_change: "Overlay change",
  lot_change: "Lot change",
  search_match: "New search matches",
};

/** An alert type's name for a person ("zoning_change" is "Zoning change"). */
export function typeLabel(type: string): string {
  const known = TYPE_LABELS[type];
  if (known) return known;
  const words = type.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const CHANNEL_LABELS: Record<string, string> = { in_app: "in-app", email: "e-mail" };

export const channelsLabel = (channels: readonly string[]): string =>
  channels.map((c) => CHANNEL_LABELS[c] ?? c).join(", ");

const FIELDS: Record<string, { name: string; value: (v: string | number) => string }> = {
  zone: { name: "Zone", value: (v) => String(v) },
  fsr: { name: "Floor space ratio", value: (v) => `${v}:1` },
  height_m: { name: "Height of building", value: (v) => `${v} m` },
  min_lot_size_m2: { name: "Minimum lot size", value: (v) => `${Number(v).toLocaleString("en-AU")} m²` },
  flood: { name: "Flood overlay", value: (v) => `${v}% of the lot` },
  bushfire: { name: "Bushfire overlay", value: (v) => `${v}% of the lot` },
  heritage: { name: "Heritage overlay", value: (v) => `${v}% of the lot` },
};

const LOT_EVENTS: Record<string, string> = {
  subdivided: "Lot subdivided",
  merged: "Lots merged",
  replaced: "Lot replaced",
  removed: "Lot removed",
  added: "Lot added",
};

/** A notification as the list shows it. */
export type Described = {
  /** What changed: "Zone", "Lot subdivided". */
  what: string;
  /** Which lot or lots. */
  where: string;
  /** Old → new, or the lots before → after; null when the change has no values. */
  values: string | null;
  /** "sydney-demo: version 1 → 2", or null when the change does not say. */
  versions: string | null;
  /** Where a click takes the map; null when the change names no place. */
  target: LotTarget | null;
};

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const pointOf = (v: unknown): [number, number] | null =>
  Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number" && Number.isFinite(x))
    ? [v[0] as number, v[1] as number]
    : null;

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

// About 60 m either side: the map shows the lot and its neighbours.
const NEAR = 0.0006;

/** The map's target for a lot: by its id when it has one (its facts open), else the point itself. */
export function lotTarget(lotId: string | null, point: [number, number], label?: string): LotTarget {
  const [lng, lat] = point;
  return {
    bbox: [lng - NEAR, lat - NEAR, lng + NEAR, lat + NEAR],
    query: lotId ? `lot_id=${encodeURIComponent(lotId)}` : `lng=${lng.toFixed(7)}&lat=${lat.toFixed(7)}`,
    label: label ?? lotId ?? "the place",
  };
}

function shown(field: string, v: unknown): string {
  if (v === null || v === undefined) return "none";
  if (typeof v !== "string" && typeof v !== "number") return "unknown";
  return FIELDS[field]?.value(v) ?? String(v);
}

/**
 * Reads a notification's `change` (the wire gives it as unknown JSON): a field of a lot changed, or a lot event.
 * Anything else is still listed, said as well as it can be, never thrown on.
 */
export function describeChange(change: unknown, alertType: string): Described {
  const c = isRecord(change) ? change : {};
  const pack = str(c.pack_id);
  const from = c.version_before;
  const to = c.version_after;
  const versions =
    pack && (typeof from === "string" || typeof from === "number") && (typeof to === "string" || typeof to === "number")
      ? `${pack}: version ${from} → ${to}`
      : null;
  const point = pointOf(c.point);
  if (c.type === "search_match") {
    const lotId = str(c.lot_id);
    const address = str(c.address);
    const more = typeof c.more === "number" ? c.more : null;
    const search = str(c.search);
    return {
      what: more !== null ? "More new matches for your saved search" : "New match for your saved search",
      where:
        more !== null
          ? `${more} more ${more === 1 ? "lot" : "lots"}`
          : `Lot ${lotId ?? "unknown"}${address ? ` (${address})` : ""}`,
      values: search ? `matches ${search}` : null,
      versions,
      target: point ? lotTarget(lotId, point) : null,
    };
  }
  if (c.type === "lot_change") {
    const before = strings(c.before);
    const after = strings(c.after);
    const kind = str(c.kind) ?? "changed";
    const lots = [...new Set([...before, ...after])];
    const opened = after[0] ?? null;
    const address = str(c.address);
    const named = lots.length > 0 ? `lot ${lots.join(", ")}` : "a lot";
    return {
      what: LOT_EVENTS[kind] ?? "Lot changed",
      where: address ? `${address} (${named})` : capitalised(named),
      values: before.length > 0 && after.length > 0 ? `${before.join(", ")} → ${after.join(", ")}` : null,
      versions,
      target: point ? lotTarget(opened, point, lots.join(", ") || undefined) : null,
    };
  }
  const field = str(c.field);
  const lotId = str(c.lot_id);
  const address = str(c.address);
  const lot = lotId ? `lot ${lotId}` : "a lot";
  return {
    what: field ? (FIELDS[field]?.name ?? field) : typeLabel(alertType),
    // The address and suburb first: a person knows the street, not the lot number.
    where: address ? `${address} (${lot})` : capitalised(lot),
    values: field ? `${shown(field, c.old)} → ${shown(field, c.new)}` : null,
    versions,
    target: point ? lotTarget(lotId, point) : null,
  };
}

/** What an alert watches, in words: the suburb, or the kind of place. */
export function alertPlace(target: unknown): string {
  const t = isRecord(target) ? target : {};
  const suburb = suburbOf(t);
  if (suburb) return suburb;
  if ("saved_site_id" in t) return "a saved site";
  if ("search" in t) return "a saved search";
  return "a drawn area";
}

/** The suburb an area alert watches, or null for any other target (a saved site, a polygon, a search). */
export function suburbOf(target: unknown): string | null {
  const area = isRecord(target) ? target.area : null;
  return isRecord(area) && typeof area.suburb === "string" ? area.suburb : null;
}

/** The header button's accessible name: the count is part of it, so a screen reader hears it too. */
export const notificationsName = (unread: number): string => `Notifications, ${unread} unread`;

/** The count on the badge: a crowded inbox stays short. */
export const badgeText = (unread: number): string => (unread > 99 ? "99+" : String(unread));
