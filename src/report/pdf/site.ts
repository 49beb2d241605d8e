// One page per top site: heading with score, map and legend, score components, controls, constraints, reasons.
import { formatArea, formatDistance, formatMetres, formatNumber, formatPercent } from "../../scoring/format.ts";
import { NOT_CHECKED_PREFIX } from "../../scoring/policy.ts";
import { DEMO_DATA_REASON, type FeasibilityResult, type YieldBasis } from "../../scoring/index.ts";
import { existingShort, NOT_RECORDED_PREFIX, STANDING_PREFIX } from "../../scoring/existing.ts";
import type { MapData } from "../map-data.ts";
import type { ReportModel } from "../model.ts";
import type { RankedSite } from "../rank.ts";
import type { Canvas } from "./canvas.ts";
import type { Flow, ReportPdf } from "./document.ts";
import { drawLegend, drawMap, drawMapFurniture } from "./map.ts";
import { drawValue } from "./value.ts";
import { COLOR, CONTENT_W, MARGIN_X, PAGE_W, RATING_COLOR, SIZE } from "./style.ts";

export const MAP_W = 300;
export const MAP_H = 236;
const COL_X = MARGIN_X + MAP_W + 18;
const COL_W = CONTENT_W - MAP_W - 18;

const BASIS: Record<YieldBasis, string> = {
  apartments: "apartments, LEP FSR",
  shop_top_housing: "shop top housing",
  tod_apartments: "apartments, TOD controls",
  mid_rise_apartments: "mid-rise apartments",
  low_rise_apartments: "low-rise apartments",
  terraces: "terraces",
  multi_dwelling: "townhouses",
  subdivision: "subdivision",
  dual_occupancy: "dual occupancy",
  single_dwelling: "single dwelling",
  too_small: "lot too small",
  floor_space: "floor space",
  no_fsr: "no FSR mapped",
  not_residential: "not a residential zone",
  no_zone: "no zone mapped",
};

const POLICY: Record<FeasibilityResult["policy"]["area"], string> = {
  tod: "TOD precinct",
  lmr_inner: "LMR inner area",
  lmr_outer: "LMR outer area",
  none: "LEP only",
};

/** The uplift as the developer reads it: dwellings or floor space beyond what is assumed to stand. */
export function upliftText(r: FeasibilityResult): string {
  if (r.upliftFloorSpaceM2 !== null) return `${formatArea(r.upliftFloorSpaceM2)} floor space`;
  if (r.upliftDwellings === null) return "not estimated";
  return `+${r.upliftDwellings} (${r.dwellingYield ?? r.existingDwellings} vs ${r.existingDwellings} today)`;
}

export const siteTitle = (s: RankedSite) =>
  s.lotId ? `${s.group ? "Lots" : "Lot"} ${s.lotId}` : `Site ${s.index + 1} (no lot id)`;

function heading(c: Canvas, s: RankedSite, top: number): number {
  const r = s.result;
  c.circle(MARGIN_X + 15, top - 6, 15, { fill: COLOR.navy });
  c.text(String(s.rank), MARGIN_X + 15, top - 11, {
    size: s.rank > 99 ? 10 : 13,
    font: "bold",
    color: COLOR.white,
    align: "center",
  });
  const textW = CONTENT_W - 40 - 110;
  c.text(siteTitle(s), MARGIN_X + 40, top - 6, { size: SIZE.h1, font: "bold", color: COLOR.navy, maxWidth: textW });
  c.text(s.address ?? "Address not recorded", MARGIN_X + 40, top - 21, {
    size: SIZE.body + 0.5,
    color: COLOR.ink,
    maxWidth: textW,
  });
  if (s.supplied.name)
    c.text(s.supplied.name, MARGIN_X + 40, top - 34, {
      size: SIZE.small + 0.5,
      font: "italic",
      color: COLOR.muted,
      maxWidth: textW,
    });
  const right = PAGE_W - MARGIN_X;
  const outOf = c.text("/100", right, top - 8, { size: SIZE.body, color: COLOR.muted, align: "right" });
  c.text(String(r.score), right - outOf - 2, top - 8, {
    size: 28,
    font: "bold",
    color: RATING_COLOR[r.rating],
    align: "right",
  });
  const pill = r.rating.toUpperCase();
  const pw = c.width(pill, { size: SIZE.small, font: "bold" }) + 14;
  c.rect(right - pw, top - 30, pw, 13, { fill: RATING_COLOR[r.rating] });
  c.text(pill, right - pw / 2, top - 26.5, { size: SIZE.small, font: "bold", color: COLOR.white, align: "center" });
  const bottom = top - 44;
  c.line(MARGIN_X, bottom, PAGE_W - MARGIN_X, bottom);
  return bottom - 16;
}

// The potential as a bar out of 100, then each factor as the points it took away.
function components(c: Canvas, r: FeasibilityResult, top: number): number {
  let y = top;
  c.text("Score components", COL_X, y, { size: SIZE.h2, font: "bold", color: COLOR.navy });
  y -= 16;
  for (const comp of r.components) {
    const potential = comp.key === "development_potential";
    c.text(comp.label, COL_X, y, { size: SIZE.small + 0.5, font: "bold", maxWidth: COL_W - 60 });
    const figure = potential
      ? `${comp.points} / ${comp.maxPoints}`
      : `\u00D7 ${formatNumber(comp.factor, 2)}${comp.points === 0 ? "" : `  (\u2212${-comp.points})`}`;
    c.text(figure, COL_X + COL_W, y, { size: SIZE.small + 0.5, align: "right" });
    y -= 8;
    if (potential) {
      c.rect(COL_X, y - 2, COL_W, 5, { fill: COLOR.barTrack });
      const share = comp.maxPoints > 0 ? Math.max(0, Math.min(1, comp.points / comp.maxPoints)) : 0;
      if (share > 0) c.rect(COL_X, y - 2, COL_W * share, 5, { fill: COLOR.navy });
      y -= 11;
    } else y -= 3;
    c.text(comp.detail, COL_X, y, { size: SIZE.tiny, color: COLOR.muted, maxWidth: COL_W });
    y -= 14;
  }
  return y;
}

/** The dual occupancy the yield tested, by the clause that applies here (s 168 only in a low and mid rise area; else the LEP). */
export function dualOccupancyText(r: FeasibilityResult): string {
  const o = r.yieldOptions.find((x) => x.basis === "dual_occupancy");
  if (!o) return "not tested (no housing here)";
  return `${o.permitted ? "permitted" : "not permitted"} (${o.clause})`;
}

function keyFigures(c: Canvas, r: FeasibilityResult, top: number): number {
  const rows: [string, string][] = [
    ["Lot area", formatArea(r.areaM2)],
    [r.frontageBasis === "street" ? "Frontage (on the street)" : "Frontage (estimated)", formatMetres(r.frontageM)],
    ["Regularity", formatNumber(r.regularity, 2)],
    ["Effective FSR", r.controls.fsr === null ? "not mapped" : `${formatNumber(r.controls.fsr, 2)}:1`],
    ["Floor space potential", r.gfaPotentialM2 === null ? "not estimated" : formatArea(r.gfaPotentialM2)],
    ["Policy", POLICY[r.policy.area]],
    ["Yield basis", BASIS[r.yieldBasis]],
    ["Standing today", existingShort(r.existing)],
    ["Uplift", upliftText(r)],
    [
      "Subdivision",
      r.subdivision.lots === null
        ? "no minimum lot size"
        : r.subdivision.possible
          ? `${r.subdivision.lots} lots`
          : "not possible",
    ],
    ["Dual occupancy", dualOccupancyText(r)],
  ];
  let y = top;
  c.text("Key figures", COL_X, y, { size: SIZE.h2, font: "bold", color: COLOR.navy });
  y -= 15;
  for (const [k, v] of rows) {
    c.text(k, COL_X, y, { size: SIZE.small, color: COLOR.muted, maxWidth: 88 });
    c.text(v, COL_X + COL_W, y, { size: SIZE.small, font: "bold", align: "right", maxWidth: COL_W - 92 });
    y -= 12;
  }
  return y;
}

function sectionTitle(flow: Flow, title: string, room: number): Canvas {
  const c = flow.need(room + 18);
  flow.y -= 6;
  c.text(title, MARGIN_X, flow.y, { size: SIZE.h2, font: "bold", color: COLOR.navy });
  flow.y -= 6;
  c.line(MARGIN_X, flow.y, PAGE_W - MARGIN_X, flow.y);
  flow.y -= 12;
  return c;
}

interface Col {
  title: string;
  width: number;
  right?: boolean;
}

function rows(flow: Flow, cols: Col[], data: string[][]): void {
  let c = flow.canvas;
  const draw = (cells: string[], header: boolean) => {
    c = flow.need(13);
    let x = MARGIN_X;
    cells.forEach((cell, i) => {
      const col = cols[i] as Col;
      c.text(cell, col.right ? x + col.width - 4 : x, flow.y, {
        size: SIZE.small + 0.5,
        font: header ? "bold" : "regular",
        color: header ? COLOR.muted : COLOR.ink,
        align: col.right ? "right" : "left",
        maxWidth: col.width - 8,
      });
      x += col.width;
    });
    flow.y -= 13;
  };
  draw(
    cols.map((col) => col.title),
    true,
  );
  for (const d of data) draw(d, false);
}

function controls(flow: Flow, r: FeasibilityResult): void {
  sectionTitle(flow, "Planning controls", 40);
  if (r.zones.length === 0) {
    flow.canvas.text("No planning zone is mapped on this lot in the data packs used.", MARGIN_X, flow.y, {
      size: SIZE.small + 0.5,
    });
    flow.y -= 14;
    return;
  }
  const cols: Col[] = [
    { title: "Zone", width: 46 },
    { title: "Name", width: CONTENT_W - 46 - 60 - 70 - 80 - 90 },
    { title: "Share of lot", width: 60, right: true },
    { title: "FSR", width: 70, right: true },
    { title: "Height limit", width: 80, right: true },
    { title: "Min. lot size", width: 90, right: true },
  ];
  const dash = "\u2014";
  rows(
    flow,
    cols,
    r.zones.map((z) => [
      z.code,
      z.name ?? dash,
      formatPercent(z.share),
      z.fsr === null ? dash : `${formatNumber(z.fsr, 2)}:1`,
      z.heightM === null ? dash : formatMetres(z.heightM),
      z.minLotSizeM2 === null ? dash : formatArea(z.minLotSizeM2),
    ]),
  );
}

function constraints(flow: Flow, r: FeasibilityResult): void {
  sectionTitle(flow, "Constraints and access", 60);
  const heritage = r.heritage.names.length > 0 ? ` (${r.heritage.names.join("; ")})` : "";
  const data: string[][] = [
    ["Flood / bushfire prone", `${formatPercent(r.hazards.flood)} / ${formatPercent(r.hazards.bushfire)} of the lot`],
    [
      "Heritage item or area",
      `${r.heritageKind === "item" ? "item: " : r.heritageKind === "conservation_area" ? "conservation area: " : ""}${formatPercent(r.heritage.share)} of the lot${heritage}`,
    ],
    [
      "Station; centre (E1, E2, MU1)",
      `${r.station ? `${r.station.name} (${r.station.mode}), ${formatDistance(r.station.distanceM)}` : "no station found"}; ${r.centreDistanceM === null ? "no centre within 800 m" : `centre land ${formatDistance(r.centreDistanceM)}`}`,
    ],
  ];
  // The walks the policy area is measured by, beside their straight lines (docs/design.md section 13).
  const walked = [r.reach?.station, r.reach?.centre].flatMap((p) =>
    p && p.walkingM !== null
      ? [`${p.name} ${formatDistance(p.walkingM)} (${formatDistance(p.straightM)} straight)`]
      : [],
  );
  if (walked.length > 0) data.push(["Walking: listed station; town centre", walked.join("; ")]);
  // The nearest stop is listed apart only when it is not the station already shown.
  if (r.transport === null || r.transport.name !== r.station?.name)
    data.push([
      "Nearest public transport",
      r.transport
        ? `${r.transport.name} (${r.transport.mode}), ${formatDistance(r.transport.distanceM)}`
        : "no stop within 5 km",
    ]);
  rows(
    flow,
    [
      { title: "Constraint", width: 150 },
      { title: "On this lot", width: CONTENT_W - 150 },
    ],
    data,
  );
}

function bullets(flow: Flow, title: string, items: readonly string[], color = COLOR.ink): void {
  if (items.length === 0) return;
  sectionTitle(flow, title, 30);
  for (const item of items) {
    const lines = flow.canvas.wrap(item, CONTENT_W - 14, { size: SIZE.small + 0.5 }, 6);
    const c = flow.need(lines.length * 11 + 2);
    c.text("\u2022", MARGIN_X + 2, flow.y, { size: SIZE.small + 0.5, color: COLOR.navy });
    for (const line of lines) {
      c.text(line, MARGIN_X + 14, flow.y, { size: SIZE.small + 0.5, color });
      flow.y -= 11;
    }
    flow.y -= 2;
  }
}

function notes(s: RankedSite, model: ReportModel): string[] {
  const out: string[] = [];
  const pack = model.packs.find((p) => p.id === s.parcel.packId);
  const packName = pack ? `${pack.id} ${pack.version}` : s.parcel.packId;
  if (s.source === "cadastre_at_point")
    out.push(
      `The point supplied for this site lies in this cadastre lot (${packName}); the lot's own boundary was assessed.`,
    );
  if (s.source === "cadastre_by_lot")
    out.push(`No geometry was supplied: the site was found by its lot id in the cadastre (${packName}).`);
  if (s.source === "supplied_polygon") out.push("The boundary supplied with the request was assessed as given.");
  if (s.group) {
    const a = s.group.result.amalgamation;
    out.push(
      `An amalgamation of ${s.group.group.lotIds.length} adjoining lots found by their lot ids in the cadastre (${packName}): ${s.group.group.lotIds.join(", ")}, assessed as one site (their outlines joined) on the zone and controls of the main lot, ${a?.mainLotId ?? "the largest"}; group ${s.group.group.groupId}.`,
    );
  }
  if (s.located.from === "scores")
    out.push("This site's location was taken from its score object because no geometry was supplied at its position.");
  if (s.supplied.score !== null && s.supplied.score !== s.result.score) {
    out.push(
      `The score supplied with the request was ${formatNumber(s.supplied.score, 1)}; the score shown was recomputed from the data packs listed in this report.`,
    );
  }
  if (s.result.demoData) out.push("Computed from synthetic demo data: not for decisions.");
  return out;
}

const LAND_USE = "Land use: ";
const NOT_CHECKED_MARK = `; ${NOT_CHECKED_PREFIX}`;
const COUNCIL = "left to the council's LEP";

// The land use as the page gives it: what is permitted, each with its citation (what the council decides is in the
// answer's reasons).
function landUseShort(reason: string): string {
  const body = reason
    .slice(LAND_USE.length)
    .replace(/\. What is left to the council is not counted: check the LEP\.$/, "");
  const parts = body.replace(/\.$/, "").split("; ");
  const kept = parts.filter((p) => !p.includes(COUNCIL));
  if (kept.length === parts.length || kept.length === 0) return reason;
  return `${LAND_USE}${kept.join("; ").replaceAll(" permitted with consent", " permitted")}.`;
}

// The page keeps to one sheet: of the forms tested only the one the yield uses is given; the others (beaten, refused or
// left to the council) are listed only when nothing gives an uplift, and then in one bullet, each cut to its test.
function pageReasons(r: FeasibilityResult): string[] {
  // "Dual occupancy not permitted (Housing SEPP 2021 s 168(2)): lot ..." -> the form and its rule.
  const OTHER = /^(.*?) not (permitted|counted)(?: \(.*?\))?: (.*)$/;
  const used = r.yieldOptions.find((o) => o.permitted && o.basis === r.yieldBasis) ?? null;
  const anyPermitted = r.yieldOptions.some((o) => o.permitted);
  const optionOf = (x: string) => r.yieldOptions.find((o) => x.endsWith(`): ${o.rule}.`));
  const out: string[] = [];
  const tests: string[] = [];
  const council: string[] = [];
  let at = -1;
  for (const x of r.reasons) {
    // What stands is a key figure ("Standing today"), so its sentence is left to the answer's reasons.
    if (
      x === DEMO_DATA_REASON ||
      x.startsWith("Lot ") ||
      x.startsWith(STANDING_PREFIX) ||
      x.startsWith(NOT_RECORDED_PREFIX)
    )
      continue;
    if (x.startsWith(LAND_USE)) {
      out.push(landUseShort(x));
      continue;
    }
    // The exclusions the data cannot check are listed once, on the method page.
    const unchecked = x.indexOf(NOT_CHECKED_MARK);
    if (unchecked > 0) {
      out.push(`${x.slice(0, unchecked)}.`);
      continue;
    }
    const o = optionOf(x);
    if (o === undefined || o === used) {
      out.push(x);
      continue;
    }
    const m = OTHER.exec(x);
    if (anyPermitted || m === null) continue;
    if (at < 0) at = out.length;
    const [, form = "", kind = "", rule = ""] = m;
    const name = form.replace(/\s*\([^)]*\)/, "").toLowerCase();
    if (kind === "counted") {
      council.push(name);
      continue;
    }
    // A site test ("lot 137 m² < 450 m², ...") is the first part of the rule; for a form held to its floor space, the last.
    const parts = rule.replace(/\.$/, "").split("; ");
    const first = parts[0] ?? "";
    const last = parts.at(-1) ?? first;
    const test = /^(lot|frontage) /.test(first) ? first : / = 0 [a-z]+$/.test(last) ? "none fits" : last;
    tests.push(`${name} (${test})`);
  }
  const left = council.length > 0 ? `Left to the council (check the LEP): ${council.join(", ")}.` : "";
  if (at >= 0)
    out.splice(at, 0, tests.length > 0 ? `Not permitted: ${tests.join("; ")}.${left ? ` ${left}` : ""}` : left);
  return out;
}

/** Draws one site on a new page (continuing onto another if its text is long). */
export function drawSite(pdf: ReportPdf, model: ReportModel, s: RankedSite, map: MapData): void {
  const flow = pdf.flow(`${siteTitle(s)} \u2014 rank ${s.rank}`);
  const c = flow.canvas;
  const top = heading(c, s, flow.y);
  const mapBottom = top - MAP_H;
  const legend = drawMap(c, map, MARGIN_X, mapBottom, MAP_W, MAP_H);
  const furnitureBottom = drawMapFurniture(c, map.view, MARGIN_X, mapBottom, MAP_W);
  const legendBottom = drawLegend(c, legend, MARGIN_X, furnitureBottom, MAP_W);
  const colBottom = keyFigures(c, s.result, components(c, s.result, top - 8) - 4);
  flow.y = Math.min(legendBottom, colBottom) - 4;
  controls(flow, s.result);
  constraints(flow, s.result);
  bullets(flow, "Why this score", pageReasons(s.result));
  if (s.value) drawValue(flow, s.value.value, s.value.assumptions);
  bullets(flow, "Notes", notes(s, model), COLOR.muted);
}
