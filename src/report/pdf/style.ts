// The report's look in one place: page size, margins, type sizes and colours.
import { rgb, type RGB } from "pdf-lib";
import type { Rating } from "../../scoring/index.ts";

// A4 portrait in points.
export const PAGE_W = 595.28;
export const PAGE_H = 841.89;
export const MARGIN_X = 48;
export const CONTENT_W = PAGE_W - 2 * MARGIN_X;
/** Body area between the running header and footer. */
export const BODY_TOP = PAGE_H - 72;
export const BODY_BOTTOM = 58;

export const SIZE = { title: 28, h1: 17, h2: 11.5, body: 9.5, small: 8, tiny: 7 } as const;

export const COLOR = {
  ink: rgb(0.13, 0.15, 0.18),
  muted: rgb(0.42, 0.45, 0.5),
  rule: rgb(0.82, 0.84, 0.87),
  band: rgb(0.95, 0.96, 0.97),
  navy: rgb(0.09, 0.2, 0.34),
  navyLight: rgb(0.86, 0.9, 0.95),
  white: rgb(1, 1, 1),
  amber: rgb(0.72, 0.45, 0.04),
  amberFill: rgb(1, 0.96, 0.86),
  subject: rgb(0.8, 0.1, 0.12),
  lot: rgb(0.55, 0.57, 0.6),
  barTrack: rgb(0.9, 0.91, 0.93),
} as const;

export const RATING_COLOR: Record<Rating, RGB> = {
  high: rgb(0.13, 0.52, 0.3),
  medium: rgb(0.8, 0.5, 0.05),
  low: rgb(0.72, 0.2, 0.16),
};

export const OVERLAY_STYLE = {
  flood: { fill: rgb(0.2, 0.45, 0.85), stroke: rgb(0.15, 0.35, 0.7), opacity: 0.28, label: "Flood planning area" },
  bushfire: { fill: rgb(0.92, 0.42, 0.1), stroke: rgb(0.75, 0.3, 0.05), opacity: 0.28, label: "Bushfire prone land" },
  heritage: { fill: rgb(0.5, 0.3, 0.55), stroke: rgb(0.42, 0.22, 0.48), opacity: 0.18, label: "Heritage item or area" },
} as const;

// Pale zone fills after the NSW Standard Instrument map colours, by the code's leading letters.
const ZONE_FILLS: [RegExp, RGB][] = [
  [/^R1/, rgb(0.98, 0.85, 0.85)],
  [/^R2/, rgb(1, 0.9, 0.88)],
  [/^R3/, rgb(0.99, 0.8, 0.76)],
  [/^R4/, rgb(0.96, 0.7, 0.66)],
  [/^R5/, rgb(1, 0.93, 0.84)],
  [/^(B|E|MU)/, rgb(0.8, 0.87, 0.98)],
  [/^IN/, rgb(0.88, 0.82, 0.94)],
  [/^(RE|C)/, rgb(0.82, 0.93, 0.8)],
  [/^SP/, rgb(1, 0.97, 0.78)],
  [/^RU/, rgb(0.93, 0.95, 0.82)],
  [/^W/, rgb(0.82, 0.92, 0.97)],
];

export function zoneFill(code: string): RGB {
  const c = code.trim().toUpperCase();
  for (const [re, color] of ZONE_FILLS) if (re.test(c)) return color;
  return rgb(0.93, 0.93, 0.93);
}
