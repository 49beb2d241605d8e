// End-to-end cost of one batch row on the real demo pack: locate the parcel, gather its facts, score it.
import { readFileSync } from "node:fs";
import { pathToFileURL, fileURLToPath } from "node:url";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { parcelAt, parcelFromFeature } from "../../src/packs/spatial.ts";
import type { ParcelHit } from "../../src/packs/spatial.ts";
import { siteFacts } from "../../src/assess/facts.ts";
import { scoreSite } from "../../src/scoring/index.ts";
import type { SiteFacts } from "../../src/scoring/index.ts";
import { parseSitesCsv } from "../../src/batch/csv.ts";
import { formatResults, type BenchResult, median } from "./result.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

// Main-thread CPU time in microseconds: other work on a shared machine does not count.
function cpuUs(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

// Microseconds per call of fn over `items` calls: repeated until ms of CPU time is spent (the clock is coarse).
function sample(fn: () => void, items: number, ms: number): number {
  let calls = 0;
  const start = cpuUs();
  let spent = 0;
  while (spent < ms * 1000 || calls === 0) {
    fn();
    calls++;
    spent = cpuUs() - start;
  }
  return spent / (calls * items);
}

export async function runAssessBenches(): Promise<BenchResult[]> {
  const packs = [readPackBytes(readFileSync(`${root}packs/sydney-demo.pack`), "sydney-demo.pack")];
  const lots = packs[0]!.layers.get("parcels")!;
  // 50 sites spread over the demo pack, like a full batch.
  const points: [number, number][] = [];
  for (let k = 0; k < 50; k++) {
    const { centroid } = parcelFromFeature(packs[0]!, Math.floor((k * lots.count) / 50));
    if (parcelAt(packs, centroid[0], centroid[1])) points.push(centroid);
  }
  const n = points.length;
  const row = ([lon, lat]: [number, number]) => scoreSite(siteFacts(packs, parcelAt(packs, lon, lat)!));
  // The first batch a fresh isolate runs: nothing compiled yet (main-thread CPU, so load elsewhere does not count).
  const t = cpuUs();
  for (const p of points) row(p);
  const coldUs = (cpuUs() - t) / n;
  for (let w = 0; w < 40; w++) for (const p of points) row(p);

  const parcels: ParcelHit[] = points.map(([lon, lat]) => parcelAt(packs, lon, lat)!);
  const facts: SiteFacts[] = parcels.map((p) => siteFacts(packs, p));
  const full: number[] = [];
  const locate: number[] = [];
  const gather: number[] = [];
  const score: number[] = [];
  // Interleaved rounds, medians: a busy neighbour skews every part alike.
  for (let rep = 0; rep < 9; rep++) {
    full.push(sample(() => points.forEach((p) => void row(p)), n, 60));
    locate.push(sample(() => points.forEach(([lon, lat]) => void parcelAt(packs, lon, lat)), n, 20));
    gather.push(sample(() => parcels.forEach((p) => void siteFacts(packs, p)), n, 40));
    score.push(sample(() => facts.forEach((f) => void scoreSite(f)), n, 40));
  }
  const csvText = ["site,latitude,longitude", ...points.map(([lon, lat], i) => `s${i},${lat},${lon}`)].join("\n");
  const parse = [1, 2, 3, 4, 5].map(() => sample(() => parseSitesCsv(csvText), 1, 20));
  const perSite = median(full);
  const scoring = median(score);
  const splits = facts.filter((f) => (f.controls?.fsr.length ?? 0) > 1 || (f.controls?.heightM.length ?? 0) > 1).length;
  return [
    {
      name: `batch row on the demo pack (${n} sites): locate + facts + score`,
      value: perSite,
      unit: "us/site",
      baseline: scoring,
      ratio: perSite / scoring,
      note: `warm, median CPU time of 9 interleaved rounds; x = full row / scoring alone on the same facts; ${splits} of the sites straddle two FSR or height areas`,
    },
    { name: "  locate: parcelAt (lookup + answer object)", value: median(locate), unit: "us/site" },
    {
      name: "  facts: zoning, fsr, height, lot_size, flood, bushfire, heritage, nearest stop",
      value: median(gather),
      unit: "us/site",
    },
    { name: "  score: scoreSite", value: scoring, unit: "us/site" },
    {
      name: "first batch in a fresh process (JIT cold)",
      value: coldUs,
      unit: "us/site",
      note: "one pass over the 50 sites before any warm-up; main-thread CPU time, the clock is coarse (about 10%)",
    },
    { name: "50-site batch, CPU for all rows (warm)", value: (perSite * n) / 1000, unit: "ms" },
    { name: "parse the 50-row CSV", value: median(parse), unit: "us" },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(formatResults(await runAssessBenches()));
