// The closing pages: how the score is computed (from the model's own constants), data sources, how to reproduce, limits.
import * as K from "../../scoring/constants.ts";
import { longDate, usesDemoData, type ReportModel } from "../model.ts";
import type { Flow, ReportPdf } from "./document.ts";
import { COLOR, CONTENT_W, MARGIN_X, PAGE_W, SIZE } from "./style.ts";

function h2(flow: Flow, title: string): void {
  const c = flow.need(50);
  flow.y -= 8;
  c.text(title, MARGIN_X, flow.y, { size: SIZE.h2 + 0.5, font: "bold", color: COLOR.navy });
  flow.y -= 6;
  c.line(MARGIN_X, flow.y, PAGE_W - MARGIN_X, flow.y);
  flow.y -= 13;
}

function para(
  flow: Flow,
  text: string,
  opts: { indent?: number; font?: "regular" | "bold" | "italic"; color?: typeof COLOR.ink } = {},
): void {
  const indent = opts.indent ?? 0;
  const lines = flow.canvas.wrap(text, CONTENT_W - indent, { size: SIZE.small + 0.5, font: opts.font });
  for (const line of lines) {
    const c = flow.need(12);
    c.text(line, MARGIN_X + indent, flow.y, { size: SIZE.small + 0.5, font: opts.font, color: opts.color });
    flow.y -= 11.5;
  }
  flow.y -= 4;
}

function formula(flow: Flow, name: string, max: number, text: string): void {
  const c = flow.need(26);
  c.text(`${name} (max ${max})`, MARGIN_X, flow.y, { size: SIZE.small + 0.5, font: "bold" });
  flow.y -= 11.5;
  para(flow, text, { indent: 12 });
}

const yieldPoints = () =>
  K.YIELD_POINTS.filter((r) => r.minYield > 0)
    .map((r) => `${r.minYield}+ dwellings ${r.points}`)
    .join(", ");

export function drawMethodology(pdf: ReportPdf, model: ReportModel): void {
  const flow = pdf.flow("Method and data sources");
  flow.canvas.text("Method and data sources", MARGIN_X, flow.y, { size: SIZE.h1, font: "bold", color: COLOR.navy });
  flow.y -= 14;

  h2(flow, "How each site was assessed");
  para(
    flow,
    "Each site is a cadastre lot. A point supplied with the request is replaced by the lot that contains it; a point on a road, park or water, or outside the data packs, is listed as unresolved and not scored. A polygon supplied with the request is assessed as given. Planning zones, flood, bushfire and heritage overlays are intersected exactly with the lot, and each share is the area of the lot under that layer divided by the lot's area (overlapping features are merged, never counted twice). The nearest public transport stop is measured from the lot's centre along the Earth's surface, up to 5 km.",
  );
  para(
    flow,
    `Lot frontage is estimated as the shorter side of the smallest rectangle that encloses the lot; regularity is the lot's area divided by that rectangle's area. The effective floor space ratio (FSR) is the share-weighted FSR of the zones on the lot; floor space potential = area \u00D7 effective FSR. Apartment yield (zones ${K.APARTMENT_ZONES.join(", ")}) = floor space \u00D7 ${K.APARTMENT_EFFICIENCY} / ${K.AVERAGE_UNIT_M2} m\u00B2, rounded down; low-rise zones (${K.LOW_RISE_ZONES.join(", ")}) count houses from subdivision (area / minimum lot size, rounded down) and dual occupancy (zones ${K.DUAL_OCCUPANCY_ZONES.join(", ")}, at least ${K.DUAL_OCC_MIN_AREA_M2} m\u00B2 and ${K.DUAL_OCC_MIN_FRONTAGE_M} m frontage). Every figure is rounded as shown before it is used.`,
  );

  h2(flow, "The score (0 to 100)");
  para(
    flow,
    "The score is the sum of four components, each rounded to whole points on its own, so the components always add up to the score.",
  );
  formula(
    flow,
    "Development potential",
    K.DEVELOPMENT_MAX,
    `Points by estimated dwelling yield: ${yieldPoints()}, none 0; ${K.UNKNOWN_YIELD_POINTS} when an apartment zone has no FSR mapped.`,
  );
  formula(
    flow,
    "Site constraints",
    K.CONSTRAINTS_MAX,
    `${K.CONSTRAINTS_MAX} - ${K.FLOOD_PENALTY} \u00D7 flood share - ${K.BUSHFIRE_PENALTY} \u00D7 bushfire share - ${K.HERITAGE_PENALTY} \u00D7 heritage share, not below 0 (shares from 0 to 1).`,
  );
  formula(
    flow,
    "Access to transport",
    K.TRANSPORT_MAX,
    `${K.TRANSPORT_MAX} \u00D7 (${K.TRANSPORT_ZERO_M} - d) / ${K.TRANSPORT_ZERO_M - K.TRANSPORT_FULL_M}, kept between 0 and ${K.TRANSPORT_MAX}, where d is the distance to the nearest stop in metres: full points within ${K.TRANSPORT_FULL_M} m, none from ${K.TRANSPORT_ZERO_M} m.`,
  );
  formula(
    flow,
    "Lot geometry",
    K.GEOMETRY_MAX,
    `${K.FRONTAGE_POINTS} \u00D7 min(1, frontage / ${K.FRONTAGE_FULL_M} m) + ${K.REGULARITY_POINTS} \u00D7 (regularity - ${K.REGULARITY_LOW}) / ${formatShort(K.REGULARITY_HIGH - K.REGULARITY_LOW)}, the second term kept between 0 and ${K.REGULARITY_POINTS}.`,
  );
  para(
    flow,
    `Rating: high from ${K.RATING_HIGH}, medium from ${K.RATING_MEDIUM}, low below ${K.RATING_MEDIUM}. Scoring model ${model.modelVersion}; the full method with a worked example is published as docs/scoring.md.`,
    {
      font: "bold",
    },
  );

  h2(flow, "Data sources");
  for (const p of model.packs) {
    const synthetic = p.syntheticLayers.length > 0 ? ` Synthetic (demo) layers: ${p.syntheticLayers.join(", ")}.` : "";
    para(flow, `${p.id} ${p.version}, ${p.title}. Licence: ${p.licence}. ${p.attribution}${synthetic}`);
  }

  h2(flow, "Limitations");
  para(
    flow,
    "This is an automated screening assessment. It estimates what a lot could yield from mapped zoning, area and shape, and flags mapped hazards; it does not read the local environmental plan's clauses, the development control plan, easements, covenants, contamination, services, access or the market. It is not planning advice and not a planning certificate. Confirm every figure with the consent authority and a qualified planner before relying on it.",
  );
  if (usesDemoData(model))
    para(flow, "Sites marked as demo data were computed from synthetic layers and must not be used for decisions.", {
      font: "bold",
      color: COLOR.amber,
    });

  h2(flow, "Reproducing this report");
  const packs = model.packs.map((p) => `${p.id} ${p.version}`).join(", ");
  para(
    flow,
    `Report ${model.reportId}, dated ${longDate(model.date)}. Data packs: ${packs || "none"}. Scoring model: ${model.modelVersion}. Request digest (SHA-256): ${model.digest}. The same request against the same pack versions on the same date reproduces these scores, this ranking and these maps exactly; each request is a new report with its own ID.`,
  );
  para(
    flow,
    'Characters the report\'s fonts cannot show (for example Chinese script or emoji) are printed as "?"; accented letters outside the Western European set lose their accents.',
    { color: COLOR.muted },
  );
}

function formatShort(x: number): string {
  return String(Math.round(x * 100) / 100);
}
