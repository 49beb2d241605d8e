// End-to-end cost of one batch row on the real demo pack: locate the parcel, gather its facts, score it.
import { readFileSync } from "node:fs";
import { pathToFileURL, fileURLToPath } from "node:url";
import { decodePack } from "../../src/packs/decode.ts";
import { parcelAt, parcelFromFeature } from "../../src/packs/spatial.ts";
import { siteFacts } from "../../src/assess/facts.ts";
import { scoreSite } from "../../src/scoring/index.ts";
import { parseSitesCsv } from "../../src/batch/csv.ts";
import { formatResults, type BenchResult, median } from "./result.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

export async function runAssessBenches(): Promise<BenchResult[]> {
  const packs = [decodePack(readFileSync(`${root}packs/sydney-demo.pack`))];
  const lots = packs[0]!.layers.get("parcels")!;
  // 50 sites spread over the demo pack, like a full batch.
  const points: [number, number][] = [];
  for (let k = 0; k < 50; k++) {
    const { centroid } = parcelFromFeature(packs[0]!, Math.floor((k * lots.count) / 50));
    if (parcelAt(packs, centroid[0], centroid[1])) points.push(centroid);
  }
  const full: number[] = [];
  const scoringOnly: number[] = [];
  const facts = points.map(([lon, lat]) => siteFacts(packs, parcelAt(packs, lon, lat)!));
  for (let rep = 0; rep < 15; rep++) {
    let t = performance.now();
    for (const [lon, lat] of points) scoreSite(siteFacts(packs, parcelAt(packs, lon, lat)!));
    full.push(((performance.now() - t) * 1000) / points.length);
    t = performance.now();
    for (const f of facts) scoreSite(f);
    scoringOnly.push(((performance.now() - t) * 1000) / facts.length);
  }
  const csvText = ["site,latitude,longitude", ...points.map(([lon, lat], i) => `s${i},${lat},${lon}`)].join("\n");
  const parse: number[] = [];
  for (let rep = 0; rep < 50; rep++) {
    const t = performance.now();
    parseSitesCsv(csvText);
    parse.push((performance.now() - t) * 1000);
  }
  const perSite = median(full);
  const score = median(scoringOnly);
  return [
    {
      name: `batch row on the demo pack (${points.length} sites): locate + facts + score`,
      value: perSite,
      unit: "us/site",
      baseline: score,
      ratio: perSite / score,
      note: "x = full row cost / scoring alone on precomputed facts; the difference is spatial work: PIP, zone and overlay clipping, nearest stop",
    },
    { name: "50-site batch, CPU for all rows", value: (perSite * points.length) / 1000, unit: "ms" },
    { name: "parse the 50-row CSV", value: median(parse), unit: "us" },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(formatResults(await runAssessBenches()));
