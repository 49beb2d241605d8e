// Provenance blocks: each pack with id, version, licence and attribution, and the demo-data notice.
import { longDate, type PackInfo, type ReportModel } from "../model.ts";
import type { Flow } from "./document.ts";
import { COLOR, CONTENT_W, MARGIN_X, SIZE } from "./style.ts";

export function packBlock(flow: Flow, pack: PackInfo): void {
  const c = flow.canvas;
  const attribution = c.wrap(pack.attribution, CONTENT_W - 12, { size: SIZE.small }, 6);
  const sources = pack.sources.map(
    (src) =>
      `${src.layer}: ${src.serviceLayer}, ${src.asAt ? `as at ${longDate(src.asAt)}` : "date not given by the service"}`,
  );
  const height =
    28 + attribution.length * 10.5 + (pack.syntheticLayers.length > 0 ? 11 : 0) + sources.length * 10.5 + 8;
  const cc = flow.need(height);
  let y = flow.y;
  cc.line(MARGIN_X, y + 9, MARGIN_X, y - height + 14, COLOR.navy, 2);
  const idW = cc.text(`${pack.id} ${pack.version}`, MARGIN_X + 10, y, { size: SIZE.body, font: "bold", maxWidth: 200 });
  cc.text(pack.title, MARGIN_X + 10 + idW + 8, y, {
    size: SIZE.body,
    color: COLOR.muted,
    maxWidth: CONTENT_W - idW - 20,
  });
  y -= 12;
  cc.text(`Licence: ${pack.licence}`, MARGIN_X + 10, y, { size: SIZE.small, maxWidth: CONTENT_W - 12 });
  y -= 11;
  for (const line of attribution) {
    cc.text(line, MARGIN_X + 10, y, { size: SIZE.small, color: COLOR.muted });
    y -= 10.5;
  }
  // Each imported layer and how current its source says it is.
  for (const line of sources) {
    cc.text(line, MARGIN_X + 10, y, { size: SIZE.small, maxWidth: CONTENT_W - 12 });
    y -= 10.5;
  }
  if (pack.syntheticLayers.length > 0) {
    cc.text(`Synthetic (demo) layers: ${pack.syntheticLayers.join(", ")}`, MARGIN_X + 10, y, {
      size: SIZE.small,
      font: "bold",
      color: COLOR.amber,
      maxWidth: CONTENT_W - 12,
    });
    y -= 11;
  }
  flow.y = y - 8;
}

/** The boxed warning shown wherever results rest on synthetic layers. */
export function demoNotice(flow: Flow, model: ReportModel): void {
  const synthetic = model.packs.filter((p) => p.syntheticLayers.length > 0);
  const which = synthetic.map((p) => `${p.id} ${p.version} (${p.syntheticLayers.join(", ")})`).join("; ");
  const body = `Results in this report were computed from synthetic layers made to look like real planning data: ${which}. They show how the method works and must not be used to buy, sell or design anything.`;
  const c = flow.canvas;
  const lines = c.wrap(body, CONTENT_W - 28, { size: SIZE.body }, 8);
  const h = 30 + lines.length * 12.5;
  const cc = flow.need(h + 10);
  const top = flow.y + 6;
  cc.rect(MARGIN_X, top - h, CONTENT_W, h, { fill: COLOR.amberFill, stroke: COLOR.amber, lineWidth: 1 });
  cc.text("Demo data \u2014 not for decisions", MARGIN_X + 14, top - 18, {
    size: SIZE.h2,
    font: "bold",
    color: COLOR.amber,
  });
  let y = top - 33;
  for (const line of lines) {
    cc.text(line, MARGIN_X + 14, y, { size: SIZE.body });
    y -= 12.5;
  }
  flow.y = top - h - 22;
}
