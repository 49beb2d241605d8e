// Sentences the offline planner writes from this turn's tool results (the JSON the chat tools return).
import { DECLINED_REASON, SUPERSEDED_REASON } from "../approval.ts";
import { dollars as wholeDollars } from "../../routes/schemas/value-waterfall.ts";

export interface ToolResult {
  name: string;
  args: Record<string, unknown>;
  output: unknown;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);
const n = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const m2 = (v: unknown) => `${Math.round(n(v)).toLocaleString("en-AU")} m²`;
const pct = (share: unknown) => `${Math.round(n(share) * 100)}%`;
const dollars = (v: unknown) => wholeDollars(n(v));
const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : "s"}`;

const OVERLAY_TEXT: Record<string, string> = {
  flood: "flood planning areas",
  bushfire: "bushfire-prone land",
  heritage: "heritage items and areas",
};

/** A search's filters as a phrase ("zoned R3, over 700 m², within 800 m of a station"). */
export function filtersText(f: Obj): string {
  const parts: string[] = [];
  const zones = Array.isArray(f.zones) ? f.zones.map(String) : [];
  if (zones.length > 0) parts.push(`zoned ${zones.join(" or ")}`);
  if (f.min_area_m2 !== undefined && f.max_area_m2 !== undefined)
    parts.push(`between ${m2(f.min_area_m2)} and ${m2(f.max_area_m2)}`);
  else if (f.min_area_m2 !== undefined) parts.push(`over ${m2(f.min_area_m2)}`);
  else if (f.max_area_m2 !== undefined) parts.push(`under ${m2(f.max_area_m2)}`);
  if (f.fsr_min !== undefined) parts.push(`with an FSR of at least ${n(f.fsr_min)}:1`);
  if (f.height_min_m !== undefined) parts.push(`with a height limit of at least ${n(f.height_min_m)} m`);
  if (f.station_within_m !== undefined) parts.push(`within ${Math.round(n(f.station_within_m))} m of a station`);
  const clear = new Set(Array.isArray(f.exclude) ? f.exclude.map(String) : []);
  if (f.hazard_free === true) for (const k of ["flood", "bushfire"]) clear.add(k);
  const named = ["flood", "bushfire", "heritage"].filter((k) => clear.has(k)).map((k) => OVERLAY_TEXT[k]);
  if (named.length > 0) parts.push(`clear of ${named.join(" and ")}`);
  return parts.length > 0 ? parts.join(", ") : "with no filter";
}

function parcelText(p: Obj): string {
  const station = isObj(p.station)
    ? `${Math.round(n(p.station.distance_m))} m from ${str(p.station.name)} station`
    : "";
  const bits = [m2(p.area_m2), str(p.zone, ""), str(p.address, ""), station].filter(Boolean);
  return `${str(p.lot_id, "a lot")} (${bits.join(", ")})`;
}

/** Lots a search answer lists by name, so "the top 3" can be read off it. */
const LISTED = 5;

const demoNote = (o: Obj) => (o.demo_data === true ? " These figures come from synthetic demo data." : "");

function findParcels(o: Obj): string {
  const where = str(o.area, "the area");
  const matched = n(o.matched);
  const filters = filtersText(isObj(o.filters) ? o.filters : {});
  const limited = o.scan_limited === true ? ` (only the first ${n(o.scanned)} parcels were searched)` : "";
  if (matched === 0) {
    const range = Array.isArray(o.area_range_m2)
      ? ` Parcels there range from ${m2(o.area_range_m2[0])} to ${m2(o.area_range_m2[1])}.`
      : "";
    return `No parcel in ${where} is ${filters}${limited}.${range}`;
  }
  if (o.order === "nearest a station first") {
    const first = list(o.parcels)[0];
    const station = first && isObj(first.station) ? first.station : null;
    if (first && station)
      return `Of the ${plural(matched, "parcel")} in ${where} ${filters}, the closest to a station is ${parcelText(first)}, ${Math.round(n(station.distance_m))} m from ${str(station.name)}; the map highlights it.${demoNote(o)}`;
  }
  const listed = list(o.parcels).slice(0, LISTED);
  const order = str(o.order, "largest first");
  const top = listed.map((p, i) => `${i + 1}. ${parcelText(p)}`).join("; ");
  return `I found ${plural(matched, "parcel")} in ${where} ${filters}${limited}; the map highlights ${n(o.shown)}. The first ${listed.length}, ${order}: ${top}.${demoNote(o)}`;
}

function summariseArea(o: Obj): string {
  const where = str(o.area, "the area");
  const zones = list(o.zone_mix)
    .slice(0, 4)
    .map((z) => `${str(z.zone, "unzoned")} ${pct(z.share)}`)
    .join(", ");
  const hazard = (key: string, label: string) => {
    const h = isObj(o[key]) ? (o[key] as Obj) : {};
    return n(h.parcels) > 0 ? `${pct(h.share)} of parcels touch ${label}` : `no parcel touches ${label}`;
  };
  const stops = list(o.transport_stops)
    .slice(0, 2)
    .map((s) => `${str(s.name)} (${str(s.mode)})`)
    .join(", ");
  const transport =
    n(o.transport_count) > 0
      ? ` It has ${plural(n(o.transport_count), "transport stop")}${stops ? `, e.g. ${stops}` : ""}.`
      : " It has no transport stop.";
  return `${where} has ${plural(n(o.parcels), "parcel")} (median ${m2(o.median_area_m2)}). Zoning by parcel: ${zones || "none recorded"}. ${hazard("flood", "a flood planning area")}; ${hazard("bushfire", "bushfire-prone land")}; ${hazard("heritage", "a heritage item or area")}.${transport}${demoNote(o)}`;
}

function describeParcel(o: Obj): string {
  const zones = list(o.zones)
    .map(
      (z) =>
        `${str(z.code)} ${str(z.name)} (${pct(z.share)}${z.fsr !== null && z.fsr !== undefined ? `, FSR ${n(z.fsr)}:1` : ""}${z.height_m ? `, height ${n(z.height_m)} m` : ""}${z.min_lot_m2 ? `, minimum lot ${m2(z.min_lot_m2)}` : ""})`,
    )
    .join("; ");
  const overlays = isObj(o.overlays) ? o.overlays : {};
  const hazard = (key: string, label: string) => {
    const h = isObj(overlays[key]) ? (overlays[key] as Obj) : {};
    return n(h.share) > 0
      ? `${label}: ${pct(h.share)} of the lot${list(h.categories)[0] ? ` (${str(list(h.categories)[0]?.category)})` : ""}`
      : `${label}: none`;
  };
  const stop = isObj(o.nearest_transport) ? o.nearest_transport : null;
  const transport = stop
    ? `Nearest transport: ${str(stop.name)} (${str(stop.mode)}), ${Math.round(n(stop.distance_m))} m.`
    : "No transport stop within 5 km.";
  return `Lot ${str(o.lot_id)} at ${str(o.address, "an unnamed address")} is ${m2(o.area_m2)}, zoned ${zones || "with no zone recorded"}. ${hazard("flood", "Flood")}; ${hazard("bushfire", "Bushfire")}; ${hazard("heritage", "Heritage")}. ${transport}${demoNote(o)}`;
}

/** Reasons quoted per scored site: its own first reasons (the tool already left out the synthetic-data notice). */
const SITE_REASONS = 2;

function scoreSites(o: Obj): string {
  const scored = list(o.scored);
  const lines = scored.map((s) => {
    // A group of adjoining lots is one site: named by its lots and owners.
    const id = Array.isArray(s.lot_ids)
      ? `the group ${s.lot_ids.map(String).join(" + ")} (${plural(n(s.owners), "owner")})`
      : str(s.lot_id);
    const name = s.address ? `${id} (${str(s.address)})` : id;
    const reasons = (Array.isArray(s.reasons) ? s.reasons.map(String) : []).slice(0, SITE_REASONS);
    const v = isObj(s.value) ? s.value : null;
    // The sign of the margin first: what a developer reads first (issue 54).
    const worth = v
      ? `; worth ${dollars(v.rlv)} to a developer against ${dollars(v.as_is)} as it stands (${n(v.margin_over_as_is) >= 0 ? `${dollars(v.margin_over_as_is)} over` : `${dollars(-n(v.margin_over_as_is))} under`})`
      : "";
    return `${name}: ${n(s.score)}/100 (${str(s.rating)})${worth}${reasons.length > 0 ? `: ${reasons.map((r) => r.replace(/\.$/, "")).join("; ")}` : ""}`;
  });
  const missing = Array.isArray(o.not_found) && o.not_found.length > 0 ? ` Not found: ${o.not_found.join(", ")}.` : "";
  const refused = Array.isArray(o.refused) && o.refused.length > 0 ? ` Not scored: ${o.refused.join(" ")}` : "";
  return `I scored ${plural(scored.length, "site")} for ${n(o.charged)} credit${n(o.charged) === 1 ? "" : "s"} (balance ${n(o.balance)}). ${lines.join(". ")}.${missing}${refused}${demoNote(o)}`;
}

/** Groups of adjoining lots: how many, then the first few with their owners and the neighbours each would isolate. */
function findAssemblies(o: Obj): string {
  const t = isObj(o.target) ? o.target : {};
  const where = str(o.area, "the area");
  const f = isObj(o.filters) ? o.filters : {};
  const filters = Object.keys(f).length > 0 ? ` ${filtersText(f)}` : "";
  const wanted = `up to ${n(t.max_lots)} adjoining lots${filters} making at least ${m2(t.area_m2)} together${t.frontage_m ? ` with ${n(t.frontage_m)} m of frontage` : ""}`;
  const groups = list(o.groups);
  if (groups.length === 0) return `I found no group of ${wanted} in ${where}.`;
  const lines = groups.map((g, i) => {
    const lots = Array.isArray(g.lots) ? g.lots.map((l) => str(l, "a lot without an id")) : [];
    const isolated = list(g.isolated);
    // The route's sentence says why for each; the answer names them, the map and the API say why.
    const left =
      isolated.length > 0
        ? `; it would leave ${isolated.map((x) => str(x.lot_id, "a lot")).join(", ")} too small to develop`
        : "";
    return `${i + 1}. ${lots.join(" + ")}: ${m2(g.area_m2)}, ${plural(n(g.owners), "owner")}, ${Math.round(n(g.frontage_m))} m of frontage${left}`;
  });
  return `I found ${plural(n(o.matched), "group")} of ${wanted} in ${where}, each lot in one group at most; the map outlines them. ${lines.join(". ")}.`;
}

function one(r: ToolResult): string {
  const o = r.output;
  // A call the person declined (or left unanswered) did not run: say so, and that it cost nothing.
  if (o === DECLINED_REASON) return "You declined the scoring, so it did not run and nothing more was charged.";
  if (o === SUPERSEDED_REASON) return "That scoring was not approved, so it did not run.";
  if (typeof o === "string") return `The ${r.name} tool failed: ${o}`;
  if (!isObj(o)) return `The ${r.name} tool returned nothing I can read.`;
  if (o.error === "insufficient_credits")
    return `I could not score those sites: it costs ${n(o.required)} credits and the organisation has ${n(o.available)}.`;
  if (typeof o.error === "string") return `I could not do that: ${o.error}`;
  switch (r.name) {
    case "find_parcels":
      return findParcels(o);
    case "find_assemblies":
      return findAssemblies(o);
    case "summarise_area":
      return summariseArea(o);
    case "describe_parcel":
      return describeParcel(o);
    case "score_sites":
      return scoreSites(o);
    case "lookup_lot":
      return `Lot ${str(o.lot_id)} is at ${str(o.address, "an unnamed address")}, ${m2(o.area_m2)}.${demoNote(o)}`;
    case "geocode_suburb":
      return `${str(o.name)}${o.state ? `, ${str(o.state)}` : ""} is on the map now.`;
    default:
      return `The ${r.name} tool answered.`;
  }
}

/** One paragraph answering from every tool result of the turn, in call order. */
export function answerFrom(results: readonly ToolResult[]): string {
  return results.map(one).join(" ");
}
