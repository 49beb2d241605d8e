// Everything the PDF shows, decided before drawing: the PDF layer only lays it out.
import { summarisePack } from "../packs/summary.ts";
import type { Pack } from "../packs/types.ts";
import { MODEL_VERSION } from "../scoring/index.ts";
import type { Ranking } from "./rank.ts";

export const REPORT_TITLE = "Site Feasibility Report";

export interface PackInfo {
  id: string;
  version: string;
  title: string;
  attribution: string;
  licence: string;
  note: string | null;
  /** Layers the pack marks synthetic (demo data). */
  syntheticLayers: string[];
  /** An imported pack's layers: "Zoning: Land Zoning, as at 2026-11-14" (design section 15); [] for other packs. */
  sources: { layer: string; serviceLayer: string; asAt: string | null }[];
}

export interface ReportModel {
  reportId: string;
  title: string;
  location: string | null;
  organisation: string;
  /** Report date, YYYY-MM-DD; also the PDF's creation date, so the same input on the same day gives the same bytes. */
  date: string;
  packs: PackInfo[];
  modelVersion: string;
  ranking: Ranking;
  lengths: { scores: number; geometries: number };
  /** Hex digest of the validated request, printed so a report can be matched to its input. */
  digest: string;
}

export function packInfo(pack: Pack): PackInfo {
  const { id, version, title, attribution, licence, note, layers } = summarisePack(pack);
  const syntheticLayers = layers.filter((l) => l.synthetic).map((l) => l.name);
  const sources = (pack.meta.provenance ?? []).map((p) => ({
    layer: p.layer,
    serviceLayer: p.service_layer,
    asAt: p.as_at,
  }));
  return { id, version, title, attribution, licence, note, syntheticLayers, sources };
}

export function buildModel(
  input: Omit<ReportModel, "title" | "modelVersion" | "packs"> & { packs: readonly Pack[] },
): ReportModel {
  return { ...input, title: REPORT_TITLE, modelVersion: MODEL_VERSION, packs: input.packs.map(packInfo) };
}

/** True when any assessed site drew on a synthetic layer. */
export function usesDemoData(model: ReportModel): boolean {
  return model.ranking.ranked.some((s) => s.result.demoData);
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-07-02" as "2 July 2026" (locale-free, identical on every runtime). */
export function longDate(isoDate: string): string {
  const [y, m, d] = isoDate.split("-").map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}

/** A file name safe on every system: `feasibility-report-<location>-<date>.pdf`. */
export function reportFilename(location: string | null, date: string): string {
  const slug = (location ?? "")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return `feasibility-report-${slug || "sites"}-${date}.pdf`;
}
