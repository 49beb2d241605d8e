// Regenerates docs/example-report.pdf from the demo packs and the Newtown example CSV, and a PNG of its
// first site page (needs poppler-utils' pdftoppm). Run: node scripts/report/example.ts [out-dir]
import { fixedScope } from "../../src/packs/scope.ts";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { parseSitesCsv } from "../../src/batch/csv.ts";
import { locateRow } from "../../src/batch/locate-row.ts";
import { siteResult } from "../../src/batch/payload.ts";
import { siteFacts } from "../../src/assess/facts.ts";
import { scoreSite } from "../../src/scoring/index.ts";
import { generateReport } from "../../src/report/generate.ts";
import { ReportGenerateRequestSchema } from "../../src/report/schema.ts";
import { digestOf } from "../../src/lib/digest.ts";
import type { ParcelGeometry } from "../../src/report/geometry.ts";
import { offlineWork } from "../../src/credits/charged-work.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const outDir = process.argv[2] ?? `${root}docs`;

export async function exampleRequest() {
  const packs = ["sydney-demo.pack", "sydney-suburbs.pack"].map((f) =>
    readPackBytes(readFileSync(`${root}packs/${f}`), f),
  );
  const parsed = parseSitesCsv(readFileSync(`${root}test/fixtures/demo-examples/newtown-latlon.csv`, "utf8"));
  if (!parsed.ok) throw new Error(parsed.detail);
  const scores: Record<string, unknown>[] = [];
  const geometries: ParcelGeometry[] = [];
  for (const row of parsed.rows) {
    const located = locateRow(packs, row, fixedScope(packs).coverage);
    if (!located.ok) continue;
    // As a client would: the batch's site_result, and its centroid as a Point.
    const result = siteResult(row, located.parcel, scoreSite(siteFacts(packs, located.parcel)));
    scores.push(result);
    geometries.push({ type: "Point", coordinates: result.parcel.centroid });
  }
  // A point in the middle of a street: kept in the report as an unresolved site.
  scores.push({ input: { site_name: "Kerbside point" } });
  geometries.push({ type: "Point", coordinates: [151.1789, -33.8985] });
  const request = ReportGenerateRequestSchema.parse({
    scores,
    parcel_geojsons: geometries,
    location: "Newtown, NSW",
    top_n: 5,
  });
  return { packs, request };
}

async function main() {
  const { packs, request } = await exampleRequest();
  const work = offlineWork("00000000-0000-4000-8000-000000000001", 0.5);
  const job = {
    request,
    packs: fixedScope(packs),
    organisation: "Demo Team",
    date: "2026-07-01",
    digest: await digestOf(request),
    work,
  };
  for await (const e of generateReport(job)) {
    const data = e.data as Record<string, unknown>;
    if (e.event !== "report_complete") {
      console.log(e.event, data.stage, data.percent, data.message);
      continue;
    }
    mkdirSync(outDir, { recursive: true });
    const pdf = Buffer.from(data.pdf_base64 as string, "base64");
    writeFileSync(`${outDir}/example-report.pdf`, pdf);
    console.log(`wrote ${outDir}/example-report.pdf: ${data.pages} pages, ${data.bytes} bytes`);
    // Page 1 is the cover, then the summary: the first site page follows it.
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "80",
      "-f",
      "3",
      "-l",
      "3",
      "-singlefile",
      `${outDir}/example-report.pdf`,
      `${outDir}/example-report-site`,
    ]);
    console.log(`wrote ${outDir}/example-report-site.png`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
