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
    `Lot frontage is its boundary on the street where measured, else the shorter side of the smallest rectangle around it; regularity is the lot's area divided by that rectangle's area. The effective FSR is the share-weighted FSR over the lot. Every figure is rounded as shown before it is used.`,
  );
  para(
    flow,
    `Policy: a lot within ${K.TOD_RADIUS_M} m of a listed transport oriented development station (Housing SEPP 2021, Chapter 5) gets FSR ${K.TOD_FSR}:1 and ${K.TOD_HEIGHT_M} m for apartments on a frontage of ${K.TOD_MIN_FRONTAGE_M} m or more. Otherwise a residential lot (R1-R4) within ${K.LMR_OUTER_M} m of a station or of E1, E2 or MU1 land is in a low and mid rise housing area (Chapter 6; inner area within ${K.LMR_INNER_M} m), unless a heritage item is on it, any of it is bushfire-prone, or ${K.LMR_FLOOD_EXCLUSION_SHARE * 100}% or more is flood-affected. Distances are straight lines, not the walking distances the SEPP uses.`,
  );
  para(
    flow,
    `Land use: a form counts only where the zone's Standard Instrument land use table or a state policy (Housing SEPP 2021 s 166, Chapters 5 and 6) permits it; a zone permitting no housing (employment land among them) is rated low. Each form (subdivision, dual occupancy, townhouses of ${K.TOWNHOUSE_M2} m\u00B2 on ${K.TOWNHOUSE_SITE_M2} m\u00B2 of site, terraces, apartments, shop top housing in E1, E2, MU1) has the FSR's floor space (LEP or policy, the higher) within its height: ${K.RESIDENTIAL_STOREY_M} m storeys under it less ${K.ROOF_ALLOWANCE_M} m (Apartment Design Guide 4C), over ${K.LOW_RISE_SITE_COVERAGE * 100}% of the lot for low-rise forms, inside a ${K.FRONT_SETBACK_M} m front setback and the guide's 3F separations for apartments (\u00D7 ${K.APARTMENT_EFFICIENCY} / ${K.AVERAGE_UNIT_M2} m\u00B2 each). The form with most dwellings is the yield, its floor space the potential; the uplift, the yield less what stands (as recorded, else ${K.EXISTING_DWELLINGS} dwelling assumed).`,
  );

  h2(flow, "The score (0 to 100)");
  para(
    flow,
    `Potential points: 0 with no uplift, so a lot with no uplift is always rated low; otherwise ${K.UPLIFT_MAX_POINTS} - ${K.UPLIFT_MAX_POINTS - K.UPLIFT_FLOOR_POINTS} \u00D7 uplift^(-1/3), each ${K.UPLIFT_HALVING_MULTIPLE}-fold uplift halving the gap to ${K.UPLIFT_MAX_POINTS}. The points are then multiplied, rounding to whole points after each step: site constraints (heritage item \u00D7 ${K.HERITAGE_ITEM_FACTOR}, conservation area \u00D7 ${K.HERITAGE_AREA_FACTOR}, flood \u00D7 (1 - ${K.FLOOD_WEIGHT} \u00D7 share), bushfire \u00D7 (1 - ${K.BUSHFIRE_WEIGHT} \u00D7 share)); access (\u00D7 1 within ${K.ACCESS_FULL_M} m of a station, falling to ${K.ACCESS_FLOOR} at ${K.ACCESS_ZERO_M} m); shape (\u00D7 1 at regularity ${K.REGULARITY_HIGH}, falling to ${K.SHAPE_FLOOR} at ${K.REGULARITY_LOW}). Each component shows what its step took away, so they add up to the score.`,
  );
  para(
    flow,
    `Rating: high from ${K.RATING_HIGH}, medium from ${K.RATING_MEDIUM}, low below ${K.RATING_MEDIUM}. Scoring model ${model.modelVersion}; the full method with thirteen worked examples and the policy sources is published as docs/scoring.md.`,
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
