// A site map drawn to scale: zones, overlays, neighbouring lots, the lot itself, stops, scale bar, north arrow.
import type { RGB } from "pdf-lib";
import type { AreaGeometry } from "../../geo/types.ts";
import type { MapData, MapView, OverlayKind } from "../map-data.ts";
import type { Canvas, Ring } from "./canvas.ts";
import { COLOR, OVERLAY_STYLE, SIZE, zoneFill } from "./style.ts";
import { toWinAnsi } from "./text.ts";

export type LegendEntry =
  | { kind: "subject" | "lot" | "stop"; label: string }
  | { kind: "zone"; label: string; fill: RGB }
  | { kind: "overlay"; overlay: OverlayKind; label: string };

type Project = (lon: number, lat: number) => [number, number];

function projector(view: MapView, x: number, y: number, w: number): Project {
  const s = w / view.widthM;
  return (lon, lat) => [x + (lon - view.west) * view.kx * s, y + (lat - view.south) * view.ky * s];
}

function ringsOf(g: AreaGeometry, p: Project): Ring[] {
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  return polys.flatMap((poly) => poly.map((ring) => ring.map((pos) => p(pos[0] as number, pos[1] as number))));
}

// The longest 1-2-5 step of metres not longer than `maxM`.
export function niceLength(maxM: number): number {
  const p = 10 ** Math.floor(Math.log10(maxM));
  for (const k of [5, 2, 1]) if (k * p <= maxM) return k * p;
  return p;
}

const metresLabel = (m: number) => (m >= 1000 ? `${m / 1000} km` : `${m} m`);

/** Scale bar (left) and north arrow (right) in a strip under the map; returns the y below the strip. */
export function drawMapFurniture(c: Canvas, view: MapView, x: number, top: number, w: number): number {
  const metres = niceLength(view.widthM * 0.3);
  const len = (metres / view.widthM) * w;
  const by = top - 20;
  const half = len / 2;
  c.rect(x, by, half, 4, { fill: COLOR.ink, stroke: COLOR.ink, lineWidth: 0.5 });
  c.rect(x + half, by, half, 4, { fill: COLOR.white, stroke: COLOR.ink, lineWidth: 0.5 });
  c.text("0", x, by + 7, { size: SIZE.tiny, align: "left" });
  c.text(metresLabel(metres), x + len, by + 7, { size: SIZE.tiny, align: "right" });
  c.text("Map to scale; north up", x + len + 10, by, { size: SIZE.tiny, color: COLOR.muted });
  // North arrow: a split triangle with N beside it.
  const ax = x + w - 14;
  c.shape(
    [
      [
        [ax, top - 4],
        [ax - 4.5, top - 22],
        [ax, top - 18],
      ],
    ],
    { fill: COLOR.ink },
  );
  c.shape(
    [
      [
        [ax, top - 4],
        [ax + 4.5, top - 22],
        [ax, top - 18],
      ],
    ],
    { fill: COLOR.white, stroke: COLOR.ink, lineWidth: 0.5 },
  );
  c.text("N", ax + 7, top - 15, { size: SIZE.small, font: "bold" });
  return top - 36;
}

/** Draws the map in the rectangle (x, y bottom-left, w by h); returns what its legend must explain. */
export function drawMap(c: Canvas, data: MapData, x: number, y: number, w: number, h: number): LegendEntry[] {
  const p = projector(data.view, x, y, w);
  const legend: LegendEntry[] = [{ kind: "subject", label: "The lot assessed" }];
  c.clipped(x, y, w, h, () => {
    c.rect(x, y, w, h, { fill: COLOR.white });
    const zonesSeen = new Map<string, LegendEntry>();
    for (const z of data.zones) {
      const fill = zoneFill(z.code);
      c.shape(ringsOf(z.geometry, p), { fill, stroke: COLOR.white, lineWidth: 1.2 });
      if (!zonesSeen.has(z.code))
        zonesSeen.set(z.code, { kind: "zone", label: z.name ? `${z.code} ${z.name}` : z.code, fill });
    }
    for (const lot of data.lots) c.shape(ringsOf(lot, p), { stroke: COLOR.lot, lineWidth: 0.4 });
    const overlaysSeen = new Set<OverlayKind>();
    for (const o of data.overlays) {
      const style = OVERLAY_STYLE[o.kind];
      c.shape(ringsOf(o.geometry, p), {
        fill: style.fill,
        fillOpacity: style.opacity,
        stroke: style.stroke,
        lineWidth: 0.8,
        dash: [3, 2],
      });
      overlaysSeen.add(o.kind);
    }
    c.shape(ringsOf(data.subject, p), { fill: COLOR.subject, fillOpacity: 0.12, stroke: COLOR.subject, lineWidth: 2 });
    for (const s of data.stops) {
      const [sx, sy] = p(s.lon, s.lat);
      c.circle(sx, sy, 3.2, { fill: COLOR.white, stroke: COLOR.navy, lineWidth: 1.4 });
      // Labels near the right edge go left of their marker so the frame does not cut them.
      const labelStyle = { size: SIZE.tiny - 0.5, color: COLOR.navy, maxWidth: 110 };
      const room = x + w - (sx + 5);
      if (c.width(toWinAnsi(s.name), labelStyle) <= room - 2) c.text(s.name, sx + 5, sy - 2.5, labelStyle);
      else c.text(s.name, sx - 5, sy - 2.5, { ...labelStyle, align: "right" });
    }
    legend.push({ kind: "lot", label: "Other lots" });
    legend.push(...[...zonesSeen.values()].sort((a, b) => a.label.localeCompare(b.label)));
    for (const kind of ["flood", "bushfire", "heritage"] as const)
      if (overlaysSeen.has(kind)) legend.push({ kind: "overlay", overlay: kind, label: OVERLAY_STYLE[kind].label });
    if (data.stops.length > 0) legend.push({ kind: "stop", label: "Public transport stop" });
  });
  c.rect(x, y, w, h, { stroke: COLOR.muted, lineWidth: 0.75 });
  return legend;
}

const SWATCH = 10;

/** Two-column legend from (x, top); returns the y below it. */
export function drawLegend(
  c: Canvas,
  entries: readonly LegendEntry[],
  x: number,
  top: number,
  w: number,
  maxRows = 6,
): number {
  const colW = w / 2;
  const shown = entries.slice(0, maxRows * 2);
  const rows = Math.ceil(shown.length / 2);
  shown.forEach((e, i) => {
    const col = i < rows ? 0 : 1;
    const row = i < rows ? i : i - rows;
    const sx = x + col * colW;
    const sy = top - row * 13;
    switch (e.kind) {
      case "subject":
        c.rect(sx, sy - 1, SWATCH, SWATCH - 2, { fill: COLOR.white, stroke: COLOR.subject, lineWidth: 1.6 });
        break;
      case "lot":
        c.rect(sx, sy - 1, SWATCH, SWATCH - 2, { fill: COLOR.white, stroke: COLOR.lot, lineWidth: 0.5 });
        break;
      case "zone":
        c.rect(sx, sy - 1, SWATCH, SWATCH - 2, { fill: e.fill, stroke: COLOR.rule, lineWidth: 0.4 });
        break;
      case "overlay": {
        const s = OVERLAY_STYLE[e.overlay];
        c.rect(sx, sy - 1, SWATCH, SWATCH - 2, {
          fill: s.fill,
          fillOpacity: s.opacity + 0.1,
          stroke: s.stroke,
          lineWidth: 0.6,
        });
        break;
      }
      case "stop":
        c.circle(sx + SWATCH / 2, sy + 3, 3, { fill: COLOR.white, stroke: COLOR.navy, lineWidth: 1.2 });
        break;
    }
    c.text(e.label, sx + SWATCH + 5, sy, { size: SIZE.tiny + 0.5, maxWidth: colW - SWATCH - 10 });
  });
  return top - rows * 13;
}
