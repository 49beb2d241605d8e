// A site's worth on its page: the residual land value as a waterfall (realisation, each cost, the RLV, beside what
// stands today), the lender's two-by-two sensitivity grid, and the assumptions it used (docs/design.md section 13).
import type { RGB } from "pdf-lib";
import type { AssumptionRow } from "../value-rows.ts";
import type { SiteValue } from "../../value/types.ts";
import type { Canvas } from "./canvas.ts";
import type { Flow } from "./document.ts";
import { COLOR, CONTENT_W, MARGIN_X, PAGE_W, SIZE } from "./style.ts";
import { rgb } from "pdf-lib";
import {
  type BarKind,
  dollars,
  type ValueBar,
  waterfall,
  waterfallRange,
} from "../../routes/schemas/value-waterfall.ts";

const LABEL_W = 150;
const AMOUNT_W = 78;
const BAR_X = MARGIN_X + LABEL_W + AMOUNT_W + 8;
const BAR_W = CONTENT_W - LABEL_W - AMOUNT_W - 8;
const ROW_H = 12;

const COLORS: Readonly<Record<BarKind, RGB>> = {
  gain: rgb(0.13, 0.52, 0.3),
  cost: rgb(0.78, 0.36, 0.3),
  rlv: COLOR.navy,
  "as-is": COLOR.muted,
};

function drawBars(flow: Flow, bars: readonly ValueBar[]): void {
  const [lo, hi] = waterfallRange(bars);
  const x = (d: number) => BAR_X + ((d - lo) / (hi - lo)) * BAR_W;
  for (const b of bars) {
    const c = flow.need(ROW_H);
    const font = b.kind === "rlv" ? "bold" : "regular";
    c.text(b.label, MARGIN_X, flow.y, { size: SIZE.small + 0.5, font, maxWidth: LABEL_W - 6 });
    c.text(dollars(b.amount), MARGIN_X + LABEL_W + AMOUNT_W, flow.y, { size: SIZE.small + 0.5, font, align: "right" });
    const [a, z] = [Math.min(b.from, b.to), Math.max(b.from, b.to)];
    c.rect(x(a), flow.y - 1.5, Math.max(0.75, x(z) - x(a)), 7, { fill: COLORS[b.kind] });
    flow.y -= ROW_H;
  }
  // The zero line, where a negative residual crosses it.
  if (lo < 0) flow.canvas.line(x(0), flow.y + ROW_H * bars.length + 8, x(0), flow.y + ROW_H - 2, COLOR.ink, 0.5);
}

function cell(c: Canvas, text: string, x: number, y: number, w: number, bold = false): void {
  c.text(text, x + w - 6, y, { size: SIZE.small + 0.5, font: bold ? "bold" : "regular", align: "right" });
}

/** The lender's grid: the residual with the sale price, then the costs, 10% lower and 10% higher, each alone. */
function drawSensitivity(flow: Flow, v: SiteValue): void {
  const c = flow.need(ROW_H * 3 + 16);
  const w = 110;
  const left = MARGIN_X + LABEL_W;
  c.text("Sensitivity of the residual", MARGIN_X, flow.y, { size: SIZE.small + 0.5, font: "bold" });
  cell(c, "10% lower", left, flow.y, w, true);
  cell(c, "10% higher", left + w, flow.y, w, true);
  flow.y -= ROW_H;
  const rows: [string, number, number][] = [
    ["Sale price", v.sensitivity.price_minus_10, v.sensitivity.price_plus_10],
    ["Costs", v.sensitivity.cost_minus_10, v.sensitivity.cost_plus_10],
  ];
  for (const [label, lower, higher] of rows) {
    c.rect(left, flow.y - 3.5, w * 2, ROW_H, { fill: COLOR.band });
    c.text(label, MARGIN_X, flow.y, { size: SIZE.small + 0.5 });
    cell(c, dollars(lower), left, flow.y, w);
    cell(c, dollars(higher), left + w, flow.y, w);
    flow.y -= ROW_H;
  }
}

/** Draws the value section: the sign of the margin first, then the waterfall, the grid and the assumptions. */
export function drawValue(flow: Flow, v: SiteValue, assumptions: readonly AssumptionRow[]): void {
  // One block: a waterfall split over two pages cannot be read, so the whole section moves to the next if need be.
  const bars = v.costs.length + 3;
  const height = 33 + ROW_H * bars + 4 + ROW_H * 3 + 4 + ROW_H + Math.ceil(assumptions.length / 2) * (ROW_H - 2);
  const c = flow.need(height);
  flow.y -= 6;
  c.text("What the site is worth", MARGIN_X, flow.y, { size: SIZE.h2, font: "bold", color: COLOR.navy });
  flow.y -= 6;
  c.line(MARGIN_X, flow.y, PAGE_W - MARGIN_X, flow.y);
  flow.y -= 13;
  const over = v.margin_over_as_is >= 0;
  const verdict = over
    ? `The scheme can pay ${dollars(v.margin_over_as_is)} more for the land than what stands on it is worth.`
    : `What stands on the land is worth ${dollars(-v.margin_over_as_is)} more than the scheme can pay for it.`;
  c.text(verdict, MARGIN_X, flow.y, {
    size: SIZE.body,
    font: "bold",
    color: over ? COLORS.gain : COLORS.cost,
    maxWidth: CONTENT_W,
  });
  flow.y -= ROW_H + 2;
  drawBars(flow, waterfall(v));
  flow.y -= 4;
  drawSensitivity(flow, v);
  flow.y -= 4;
  const t = flow.need(ROW_H * 2);
  t.text(`Assumptions (version ${v.assumptions_version}; ${v.model})`, MARGIN_X, flow.y, {
    size: SIZE.small + 0.5,
    font: "bold",
  });
  flow.y -= ROW_H;
  // Two columns of label and value: the table stays a third of a page however many figures there are.
  const half = Math.ceil(assumptions.length / 2);
  const colW = CONTENT_W / 2;
  for (let i = 0; i < half; i++) {
    const row = flow.need(ROW_H);
    for (const [k, pair] of [assumptions[i], assumptions[i + half]].entries()) {
      if (!pair) continue;
      const x = MARGIN_X + k * colW;
      row.text(pair[0], x, flow.y, { size: SIZE.small, color: COLOR.muted, maxWidth: colW * 0.6 });
      row.text(pair[1], x + colW - 10, flow.y, { size: SIZE.small, align: "right", maxWidth: colW * 0.4 - 10 });
    }
    flow.y -= ROW_H - 2;
  }
}
