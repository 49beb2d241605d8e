// The report stream: progress while sites are resolved, ranked and drawn, then the PDF in `report_complete`.
import type { ReportEvent, ReportProgress } from "../routes/schemas/report.ts";
import type { Pack } from "../packs/types.ts";
import type { PackScope } from "../packs/scope.ts";
import type { ChargedWork } from "../credits/charged-work.ts";
import { mapData, viewFor } from "./map-data.ts";
import { buildModel, reportFilename, type ReportModel } from "./model.ts";
import type { ReportRenderer } from "./pdf/render.ts";
import { rankSites } from "./rank.ts";
import type { ReportRequest } from "./schema.ts";
import { pairSites, resolveSite, type ReportSite, siteAreas, withWorth } from "./sites.ts";
import type { KeepReport } from "./keep.ts";
import { nextTask } from "../lib/next-task.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";

export interface ReportJob {
  request: ReportRequest;
  packs: PackScope;
  organisation: string;
  /** Report date, YYYY-MM-DD. */
  date: string;
  /** Hex SHA-256 of the validated request. */
  digest: string;
  /** The report's one unit of charged work: settled as delivered once the client has taken the PDF. */
  work: ChargedWork;
  /** Stores the finished PDF for the paying organisation before it is sent (absent for unpaid example reports). */
  keep?: KeepReport;
  /** The paying organisation's valuation assumptions: each detailed site shows what it is worth on them. */
  assumptions?: AssumptionsDocument;
}

export interface RendererModule {
  MAP_ASPECT: number;
  createRenderer(model: ReportModel): Promise<ReportRenderer>;
}

// pdf-lib is loaded on the first report, not when the Worker starts.
export const loadRenderer = (): Promise<RendererModule> => import("./pdf/render.ts");

/** A failure after the stream began; `detail` is what the client is told, refund included. */
export class ReportFailure extends Error {
  readonly detail: string;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = "ReportFailure";
    this.detail = detail;
  }
}

/** The stream's last event after a failure: a ReportFailure's own words, anything else generic. */
export function reportErrorEvent(err: unknown): ReportEvent {
  return { event: "error", data: { detail: err instanceof ReportFailure ? err.detail : "Internal server error" } };
}

/** A `progress` event, its percent a whole number. */
function progress(data: ReportProgress): ReportEvent {
  return { event: "progress", data: { ...data, percent: Math.round(data.percent) } };
}

function base64(bytes: Uint8Array): string {
  let bin = "";
  // Chunks keep String.fromCharCode's argument list far below engine limits.
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function siteEvent(site: ReportSite, done: number, total: number): ReportEvent {
  const percent = 2 + (38 * done) / total;
  const n = `Site ${site.index + 1} of ${total}`;
  if (site.status === "unresolved") {
    return progress({
      stage: "resolving",
      percent,
      message: `${n}: unresolved site. ${site.detail}`,
      site: { index: site.index, status: "unresolved", detail: site.detail },
    });
  }
  const lot = site.lotId ? `lot ${site.lotId}` : "a lot without an id";
  return progress({
    stage: "resolving",
    percent,
    message: `${n}: ${lot}, score ${site.result.score}`,
    site: { index: site.index, status: "resolved", lot_id: site.lotId, score: site.result.score, source: site.source },
  });
}

// Layers only the map draws (the transport pack's rail network): a pack of nothing else is no source of a report.
const MAP_ONLY_LAYERS = new Set(["stations", "lines"]);
const readsFrom = (p: Pack) => [...p.layers.keys()].some((name) => !MAP_ONLY_LAYERS.has(name));

/**
 * The events of one charged report. The first event goes out before any heavy work; a failure refunds
 * the charge in full and is rethrown as a ReportFailure for the stream's `error` event.
 */
export async function* generateReport(
  job: ReportJob,
  load: () => Promise<RendererModule> = loadRenderer,
): AsyncGenerator<ReportEvent> {
  const { request, packs: scope, work } = job;
  // The packs the report drew on, once each (a v2 pack's pages share its id), for its sources section.
  const used = new Map<string, Pack>();
  const note = (packs: readonly Pack[]) => {
    for (const p of packs) if (!used.has(p.id) && readsFrom(p)) used.set(p.id, p);
    return packs;
  };
  const inputs = pairSites(request);
  let settled = false;
  try {
    const lengths = { scores: request.scores.length, geometries: request.parcel_geojsons.length };
    const differ =
      lengths.scores !== lengths.geometries
        ? ` (${lengths.scores} score objects, ${lengths.geometries} geometries: paired by position)`
        : "";
    yield progress({
      stage: "resolving",
      percent: 0,
      message: `Resolving ${inputs.length} site${inputs.length === 1 ? "" : "s"}${differ}`,
      report_id: work.id,
      charged: work.charged,
      balance: work.balance,
      replayed: work.replayed,
    });
    await nextTask();
    const renderer = load();
    // Awaited after the sites are resolved; a rejection meanwhile must not go unhandled.
    renderer.catch(() => {});
    const sites: ReportSite[] = [];
    for (const input of inputs) {
      const packs = note(await scope.at(siteAreas(input)));
      const site = withWorth(packs, resolveSite(packs, input), job.assumptions);
      sites.push(site);
      yield siteEvent(site, sites.length, inputs.length);
      await nextTask();
    }

    const ranking = rankSites(sites, request.top_n);
    const unresolved = ranking.unresolved.map((s) => s.index);
    yield progress({
      stage: "ranking",
      percent: 42,
      message: `Ranked ${ranking.ranked.length} site${ranking.ranked.length === 1 ? "" : "s"}; ${ranking.detailed.length} detailed; ${unresolved.length} unresolved`,
      ranked: ranking.ranked.length,
      detailed: ranking.detailed.length,
      unresolved,
    });

    const model = buildModel({
      reportId: work.id,
      location: request.location,
      organisation: job.organisation,
      date: job.date,
      packs: [...used.values()],
      ranking,
      lengths,
      digest: job.digest,
    });
    const { createRenderer, MAP_ASPECT } = await renderer;
    const pdf = await createRenderer(model);
    pdf.drawOverview();
    yield progress({ stage: "drawing", percent: 50, message: "Drew the cover and the ranked summary" });
    await nextTask();
    for (const [k, site] of ranking.detailed.entries()) {
      const view = viewFor(site.parcel, MAP_ASPECT);
      const around = await scope.at([{ box: [view.west, view.south, view.east, view.north] }]);
      pdf.drawSite(site, mapData(around, site.parcel, MAP_ASPECT));
      const label = site.lotId ? `lot ${site.lotId}` : `site ${site.index + 1}`;
      yield progress({
        stage: "drawing",
        percent: 50 + (40 * (k + 1)) / ranking.detailed.length,
        message: `Drew site ${k + 1} of ${ranking.detailed.length}: ${label}`,
        rank: site.rank,
        lot_id: site.lotId,
        score: site.result.score,
      });
      await nextTask();
    }

    yield progress({ stage: "assembling", percent: 92, message: "Assembling the PDF" });
    await nextTask();
    const { bytes, pages } = await pdf.finish();
    const filename = reportFilename(request.location, job.date);
    // What report_complete hands over is kept first: a report that cannot be stored fails and is refunded.
    await job.keep?.({ reportId: work.id, filename, pages, bytes, location: request.location ?? null });
    yield {
      event: "report_complete",
      data: {
        report_id: work.id,
        filename,
        pages,
        bytes: bytes.length,
        sites: inputs.length,
        ranked: ranking.ranked.length,
        detailed: ranking.detailed.length,
        unresolved,
        charged: work.charged,
        replayed: work.replayed,
        pdf_base64: base64(bytes),
      },
    };
    // Resumed only once the client has read report_complete: the PDF was delivered, the charge stands.
    settled = true;
    await work.settle(1);
  } catch (err) {
    if (settled) throw err;
    settled = true;
    const refund = await work.settle(0);
    throw new ReportFailure(
      refund.ok
        ? `Internal server error: the report could not be generated; the ${work.charged} credits charged were refunded`
        : `Internal server error: the report could not be generated; the refund of report ${work.id} is pending`,
      { cause: err },
    );
  } finally {
    // Reached unsettled only when the client left before taking the PDF: nothing was delivered, refund it.
    if (!settled) await work.settle(0);
  }
}
