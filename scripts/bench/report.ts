// CPU cost of a report on the demo pack: 5 and 50 sites from request to bytes, against pdf-lib saving the
// same number of blank pages in the same run (the floor any PDF of that length pays). CPU time, not wall
// time, so a busy machine does not inflate the figures; the first runs warm the JIT and are discarded.
import { fixedScope } from "../../src/packs/scope.ts";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PDFDocument } from "pdf-lib";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { parcelAt, parcelFromFeature } from "../../src/packs/spatial.ts";
import { generateReport } from "../../src/report/generate.ts";
import { ReportGenerateRequestSchema } from "../../src/report/schema.ts";
import { formatResults, median, type BenchResult } from "./result.ts";
import { offlineWork } from "../../src/credits/charged-work.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

async function blankPdf(pages: number): Promise<number> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) doc.addPage([595.28, 841.89]);
  return (await doc.save()).length;
}

export async function runReportBenches(): Promise<BenchResult[]> {
  const packs = ["sydney-demo", "sydney-suburbs"].map((n) => readPackBytes(readFileSync(`${root}packs/${n}.pack`), n));
  const lots = packs[0]!.layers.get("parcels")!;
  const centroids: [number, number][] = [];
  for (let k = 0; k < 50; k++) {
    const { centroid } = parcelFromFeature(packs[0]!, Math.floor((k * lots.count) / 50));
    if (parcelAt(packs, centroid[0], centroid[1])) centroids.push(centroid);
  }
  const work = offlineWork("00000000-0000-4000-8000-000000000000", 0.5);
  const out: BenchResult[] = [];
  for (const n of [5, 50]) {
    const request = ReportGenerateRequestSchema.parse({
      scores: [],
      parcel_geojsons: centroids.slice(0, n).map((c) => ({ type: "Point", coordinates: c })),
      location: "Benchmark",
      top_n: 50,
    });
    const job = {
      request,
      packs: fixedScope(packs),
      organisation: "Bench",
      date: "2026-07-01",
      digest: "0".repeat(64),
      work,
    };
    const times: number[] = [];
    const blank: number[] = [];
    let pages = 0;
    let bytes = 0;
    const cpuMs = (since: NodeJS.CpuUsage) => {
      const d = process.cpuUsage(since);
      return (d.user + d.system) / 1000;
    };
    const reps = n === 5 ? 25 : 8;
    for (let rep = 0; rep < reps; rep++) {
      let t = process.cpuUsage();
      for await (const e of generateReport(job)) {
        if (e.event === "report_complete") ({ pages, bytes } = e.data as { pages: number; bytes: number });
      }
      const report = cpuMs(t);
      t = process.cpuUsage();
      await blankPdf(pages);
      const base = cpuMs(t);
      if (rep < 3) continue;
      times.push(report);
      blank.push(base);
    }
    const value = median(times);
    const baseline = median(blank);
    out.push({
      name: `${n}-site report (${pages} pages), request to bytes`,
      value,
      unit: "ms CPU",
      baseline,
      ratio: value / baseline,
      note: `x = report / blank pages of the same count${n === 5 ? "; aim: under 50 ms" : ""}`,
    });
    out.push({
      name: `${n}-site report size`,
      value: bytes / 1024,
      unit: "KiB",
      note: n === 5 ? "aim: under 300 KB" : undefined,
    });
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(formatResults(await runReportBenches()));
