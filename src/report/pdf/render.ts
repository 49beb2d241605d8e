// The report renderer the stream drives page by page; loaded with a dynamic import so only this route pays for pdf-lib.
import type { MapData } from "../map-data.ts";
import type { ReportModel } from "../model.ts";
import type { RankedSite } from "../rank.ts";
import { drawCover } from "./cover.ts";
import { ReportPdf } from "./document.ts";
import { drawMethodology } from "./methodology.ts";
import { MAP_H, MAP_W, drawSite } from "./site.ts";
import { drawSummary } from "./summary.ts";

/** Width over height of the site maps, for choosing each map's view. */
export const MAP_ASPECT = MAP_W / MAP_H;

export interface ReportRenderer {
  /** Cover and ranked summary. */
  drawOverview(): void;
  drawSite(site: RankedSite, map: MapData): void;
  /** Method and sources page, page numbers and metadata; then the bytes. */
  finish(): Promise<{ bytes: Uint8Array; pages: number }>;
}

export async function createRenderer(model: ReportModel): Promise<ReportRenderer> {
  const pdf = await ReportPdf.create(model);
  return {
    drawOverview() {
      drawCover(pdf, model);
      drawSummary(pdf, model);
    },
    drawSite(site, map) {
      drawSite(pdf, model, site, map);
    },
    async finish() {
      drawMethodology(pdf, model);
      const bytes = await pdf.finish();
      return { bytes, pages: pdf.pageCount };
    },
  };
}
