// Page 1: title, location, date, who it was prepared for, the headline figures and the data behind them.
import { longDate, usesDemoData, type ReportModel } from "../model.ts";
import type { ReportPdf } from "./document.ts";
import { COLOR, CONTENT_W, MARGIN_X, PAGE_H, PAGE_W, RATING_COLOR, SIZE } from "./style.ts";
import { packBlock, demoNotice } from "./packs.ts";

const BAND_H = 230;

export function drawCover(pdf: ReportPdf, model: ReportModel): void {
  const flow = pdf.flow("Data packs used");
  const c = flow.canvas;
  const { ranked, unresolved, detailed } = model.ranking;

  c.rect(0, PAGE_H - BAND_H, PAGE_W, BAND_H, { fill: COLOR.navy });
  c.text("FEASIBILITY SCREENING", MARGIN_X, PAGE_H - 64, { size: SIZE.small, font: "bold", color: COLOR.navyLight });
  c.text(model.title, MARGIN_X, PAGE_H - 104, {
    size: SIZE.title,
    font: "bold",
    color: COLOR.white,
    maxWidth: CONTENT_W,
  });
  const where = model.location ?? "Sites submitted for assessment";
  let y = PAGE_H - 134;
  for (const line of c.wrap(where, CONTENT_W, { size: 15 }, 2)) {
    c.text(line, MARGIN_X, y, { size: 15, color: COLOR.white });
    y -= 20;
  }
  c.text(longDate(model.date), MARGIN_X, PAGE_H - BAND_H + 24, { size: SIZE.body + 0.5, color: COLOR.navyLight });

  // Who and what: two columns under the band.
  y = PAGE_H - BAND_H - 36;
  const colW = CONTENT_W / 2 - 12;
  c.text("Prepared for", MARGIN_X, y, { size: SIZE.small, color: COLOR.muted });
  const orgBottom = c.paragraph(model.organisation, MARGIN_X, y - 15, colW, {
    size: 12,
    font: "bold",
    maxLines: 2,
    leading: 15,
  });
  const rx = MARGIN_X + CONTENT_W / 2 + 12;
  const facts: [string, string][] = [
    ["Report date", longDate(model.date)],
    ["Report ID", model.reportId],
    ["Scoring model", model.modelVersion],
  ];
  let ry = y;
  for (const [k, v] of facts) {
    c.text(k, rx, ry, { size: SIZE.small, color: COLOR.muted });
    c.text(v, rx + 72, ry, { size: SIZE.small, maxWidth: colW - 72 });
    ry -= 13;
  }
  y = Math.min(orgBottom, ry) - 22;

  // Headline figures.
  const tiles: [string, string][] = [
    [String(ranked.length + unresolved.length), "sites submitted"],
    [String(ranked.length), "assessed and ranked"],
    [String(unresolved.length), "unresolved"],
    [String(detailed.length), "detailed in this report"],
  ];
  const tileW = (CONTENT_W - 3 * 10) / 4;
  tiles.forEach(([n, label], i) => {
    const x = MARGIN_X + i * (tileW + 10);
    c.rect(x, y - 50, tileW, 54, { fill: COLOR.band });
    c.text(n, x + 12, y - 22, { size: 20, font: "bold", color: COLOR.navy });
    c.text(label, x + 12, y - 38, { size: SIZE.small, color: COLOR.muted, maxWidth: tileW - 20 });
  });
  y -= 76;

  const best = ranked[0];
  if (best) {
    c.text("Highest-scoring site", MARGIN_X, y, { size: SIZE.small, color: COLOR.muted });
    const scoreW = c.text(String(best.result.score), MARGIN_X, y - 22, {
      size: 20,
      font: "bold",
      color: RATING_COLOR[best.result.rating],
    });
    const outOfW = c.text(`/100 ${best.result.rating}`, MARGIN_X + scoreW + 4, y - 22, {
      size: SIZE.body,
      color: COLOR.muted,
    });
    const label = [
      best.lotId ? `${best.group ? "Lots" : "Lot"} ${best.lotId}` : `Site ${best.index + 1}`,
      best.address ?? best.supplied.name,
    ]
      .filter(Boolean)
      .join(", ");
    const lx = Math.max(MARGIN_X + 90, MARGIN_X + scoreW + outOfW + 16);
    c.text(label, lx, y - 22, { size: SIZE.body + 0.5, font: "bold", maxWidth: MARGIN_X + CONTENT_W - lx });
    y -= 46;
  } else {
    c.paragraph(
      "No site could be assessed: every submitted site is listed as unresolved with the reason.",
      MARGIN_X,
      y,
      CONTENT_W,
      { font: "bold" },
    );
    y -= 30;
  }

  flow.y = y;
  if (usesDemoData(model)) demoNotice(flow, model);
  flow.need(40);
  flow.canvas.text("Data packs used", MARGIN_X, flow.y, { size: SIZE.h2, font: "bold", color: COLOR.navy });
  flow.y -= 16;
  for (const pack of model.packs) packBlock(flow, pack);
}
