// How the Data page says sizes, times and boxes: short for the eye, exact on hover.

const UNITS = ["bytes", "KB", "MB", "GB"];

/** 1076 -> "1.1 KB", 3_400_000 -> "3.2 MB". */
export function bytes(n: number): string {
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${UNITS[u]}`;
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "just now", "5 minutes ago", "yesterday", from an ISO time. */
export function ago(iso: string, now = Date.now()): string {
  let v = (Date.parse(iso) - now) / 1000;
  if (Math.abs(v) < 45) return "just now";
  const say = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, size] of STEPS) {
    if (Math.abs(v) < size) return say.format(Math.round(v), unit);
    v /= size;
  }
  return say.format(Math.round(v), "year");
}

/** The exact time, in the person's own zone, for the hover title. */
export const exact = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" });

/** [W, S, E, N] as corners a person reads: "33.8100° S, 151.0000° E to 33.8096° S, 151.0010° E". */
export function box(b: readonly number[]): string {
  const [w = 0, s = 0, e = 0, n = 0] = b;
  const lat = (v: number) => `${Math.abs(v).toFixed(4)}° ${v < 0 ? "S" : "N"}`;
  const lng = (v: number) => `${Math.abs(v).toFixed(4)}° ${v < 0 ? "W" : "E"}`;
  return `${lat(s)}, ${lng(w)} to ${lat(n)}, ${lng(e)}`;
}

/** The layers POST /packs accepts, named as a person would. */
export const UPLOAD_LAYERS: { id: string; label: string }[] = [
  { id: "lots", label: "Lots (parcels)" },
  { id: "zoning", label: "Zoning" },
  { id: "fsr", label: "Floor space ratio" },
  { id: "height", label: "Height of building" },
  { id: "lot_size", label: "Minimum lot size" },
  { id: "flood", label: "Flood" },
  { id: "bushfire", label: "Bushfire" },
  { id: "heritage", label: "Heritage" },
  { id: "transport", label: "Transport stops" },
  { id: "suburbs", label: "Suburbs" },
];

/** A pack layer's name for people ("parcels" is what an upload as "lots" becomes). */
export const layerLabel = (name: string) =>
  UPLOAD_LAYERS.find((l) => l.id === (name === "parcels" ? "lots" : name))?.label ?? name;
