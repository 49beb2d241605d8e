// The ranked summary table of every assessed site, then the sites that could not be resolved and why.
import { formatNumber } from "../../scoring/format.ts";
import type { ReportModel } from "../model.ts";
import type { RankedSite } from "../rank.ts";
import type { UnresolvedSite } from "../sites.ts";
import type { RGB } from "pdf-lib";
import type { Canvas } from "./canvas.ts";
import type { Flow, ReportPdf } from "./document.ts";
import { COLOR, CONTENT_W, MARGIN_X, RATING_COLOR, SIZE } from "./style.ts";

interface Cell {
  text: string;
  font?: "bold" | "regular";
  color?: RGB;
}

interface Column {
  title: string;
  width: number;
  align?: "left" | "right";
}

const RANKED: Column[] = [
  { title: "Rank", width: 34 },
  { title: "Lot", width: 98 },
  { title: "Site", width: 165 },
  { title: "Area m\u00B2", width: 56, align: "right" },
  { title: "Zone", width: 48 },
  { title: "Score", width: 44, align: "right" },
  { title: "Rating", width: 54 },
];

const ROW_H = 17;

function headerRow(c: Canvas, columns: Column[], y: number): void {
  c.rect(MARGIN_X, y - 5, CONTENT_W, ROW_H, { fill: COLOR.navy });
  let x = MARGIN_X;
  for (const col of columns) {
    const pad = 6;
    c.text(col.title, col.align === "right" ? x + col.width - pad : x + pad, y, {
      size: SIZE.small,
      font: "bold",
      color: COLOR.white,
      align: col.align,
    });
    x += col.width;
  }
}

export function siteLabel(name: string | null, address: string | null): string {
  if (name && address && name !== address) return `${name} \u2014 ${address}`;
  return name ?? address ?? "\u2014";
}

/** Draws table rows, repeating the header on each new page. */
function table<T>(flow: Flow, columns: Column[], rows: readonly T[], cells: (row: T) => Cell[]): void {
  let c = flow.need(ROW_H * 3);
  headerRow(c, columns, flow.y);
  flow.y -= ROW_H;
  rows.forEach((row, i) => {
    const before = flow.canvas;
    c = flow.need(ROW_H);
    if (c !== before) {
      headerRow(c, columns, flow.y);
      flow.y -= ROW_H;
    }
    if (i % 2 === 1) c.rect(MARGIN_X, flow.y - 5, CONTENT_W, ROW_H, { fill: COLOR.band });
    let x = MARGIN_X;
    cells(row).forEach((cell, k) => {
      const col = columns[k] as Column;
      const pad = 6;
      c.text(cell.text, col.align === "right" ? x + col.width - pad : x + pad, flow.y, {
        size: SIZE.small + 0.5,
        font: cell.font ?? "regular",
        maxWidth: col.width - 2 * pad,
        align: col.align,
        color: cell.color,
      });
      x += col.width;
    });
    flow.y -= ROW_H;
  });
  flow.y -= 6;
}

function rankedCells(s: RankedSite): Cell[] {
  const zone = s.result.dominantZone?.code ?? "\u2014";
  const rating = s.result.rating;
  return [
    { text: String(s.rank), font: "bold" },
    { text: s.lotId ?? "\u2014" },
    { text: siteLabel(s.supplied.name, s.address) },
    { text: formatNumber(s.result.areaM2) },
    { text: zone },
    { text: String(s.result.score), font: "bold" },
    { text: rating[0]?.toUpperCase() + rating.slice(1), font: "bold", color: RATING_COLOR[rating] },
  ];
}

const UNRESOLVED: Column[] = [
  { title: "Input", width: 44 },
  { title: "Site", width: 150 },
  { title: "Why it could not be assessed", width: CONTENT_W - 194 },
];

function unresolvedTable(flow: Flow, sites: readonly UnresolvedSite[]): void {
  let c = flow.need(ROW_H * 3);
  headerRow(c, UNRESOLVED, flow.y);
  flow.y -= ROW_H;
  const reasonW = (UNRESOLVED[2] as Column).width - 12;
  sites.forEach((s, i) => {
    const lines = flow.canvas.wrap(s.detail, reasonW, { size: SIZE.small + 0.5 }, 4);
    const h = Math.max(ROW_H, lines.length * 11 + 6);
    const before = flow.canvas;
    c = flow.need(h);
    if (c !== before) {
      headerRow(c, UNRESOLVED, flow.y);
      flow.y -= ROW_H;
    }
    if (i % 2 === 1) c.rect(MARGIN_X, flow.y - h + 12, CONTENT_W, h, { fill: COLOR.band });
    c.text(`#${s.index + 1}`, MARGIN_X + 6, flow.y, { size: SIZE.small + 0.5, font: "bold" });
    c.text(
      siteLabel(s.supplied.name, s.supplied.address ?? (s.supplied.lotId ? `Lot ${s.supplied.lotId}` : null)),
      MARGIN_X + 50,
      flow.y,
      {
        size: SIZE.small + 0.5,
        maxWidth: 138,
      },
    );
    let y = flow.y;
    for (const line of lines) {
      c.text(line, MARGIN_X + 200, y, { size: SIZE.small + 0.5 });
      y -= 11;
    }
    flow.y -= h;
  });
}

export function drawSummary(pdf: ReportPdf, model: ReportModel): void {
  const flow = pdf.flow("Ranked sites");
  const { ranked, unresolved, detailed } = model.ranking;
  let c = flow.canvas;
  c.text("Ranked sites", MARGIN_X, flow.y, { size: SIZE.h1, font: "bold", color: COLOR.navy });
  flow.y -= 20;
  const intro =
    ranked.length === 0
      ? "No submitted site could be assessed."
      : `${ranked.length} site${ranked.length === 1 ? " was" : "s were"} assessed and ranked by feasibility score (0 to 100, higher is better). ` +
        (detailed.length === 1
          ? "The top site is detailed on the next page."
          : `The top ${detailed.length} are detailed on the pages that follow, one site per page.`);
  flow.y = c.paragraph(intro, MARGIN_X, flow.y, CONTENT_W, { color: COLOR.ink });
  const { scores, geometries } = model.lengths;
  if (scores !== geometries) {
    const note =
      `${scores} score object${scores === 1 ? "" : "s"} and ${geometries} geometr${geometries === 1 ? "y were" : "ies were"} supplied. ` +
      "Sites were paired by position; a site without a geometry was located from its score object's own parcel data, and a geometry without a score object was assessed on its own.";
    flow.y = c.paragraph(note, MARGIN_X, flow.y - 2, CONTENT_W, { size: SIZE.small, color: COLOR.amber });
  }
  flow.y -= 10;
  if (ranked.length > 0) table(flow, RANKED, ranked, rankedCells);
  if (unresolved.length > 0) {
    c = flow.need(60);
    flow.y -= 10;
    c.text("Unresolved sites", MARGIN_X, flow.y, { size: SIZE.h2 + 1, font: "bold", color: COLOR.navy });
    flow.y -= 14;
    flow.y = c.paragraph(
      "These sites are listed as submitted but not scored: no parcel could be found for them in the data packs.",
      MARGIN_X,
      flow.y,
      CONTENT_W,
      {
        size: SIZE.small + 0.5,
        color: COLOR.muted,
      },
    );
    flow.y -= 6;
    unresolvedTable(flow, unresolved);
  }
}
