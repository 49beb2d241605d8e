// `npm run bench`: every benchmark, each printing ratios against a baseline measured in the same run.
import { formatResults, type BenchResult } from "./result.ts";
import { runPackBenches } from "./packs.ts";
import { runScoringBenches } from "./scoring.ts";
import { runCsvBenches } from "./csv.ts";
import { runAssessBenches } from "./assess.ts";
import { runReportBenches } from "./report.ts";
import { runTileBenches } from "./tiles.ts";
import { runUploadBenches } from "./upload.ts";
import { runValidityBenches } from "./validity.ts";
import { runDbLatencyBenches } from "./db-latency.ts";
import { runSiteSearchBenches } from "./search.ts";
import { runRatingsBenches } from "./ratings.ts";
import { runPackMemoryBenches, runPackReadsBenches, runPackSpeedBenches } from "./paged/index.ts";
import { runAlertsBenches } from "./alerts.ts";
import { runPackBuildBenches } from "./pack-build.ts";
import { runMapReadyBenches } from "./map-ready.ts";
import { runAssembleBenches } from "./assemble.ts";

const suites: [string, () => Promise<BenchResult[]>][] = [
  ["packs", runPackBenches],
  ["scoring", () => runScoringBenches()],
  ["csv", () => runCsvBenches()],
  ["batch rows", runAssessBenches],
  ["report", runReportBenches],
  ["tiles", runTileBenches],
  ["upload", runUploadBenches],
  ["validity", runValidityBenches],
  // Database latency: `npm run bench -- db` alone; BENCH_DB_RTT sets the round trip (20 ms).
  ["db", runDbLatencyBenches],
  // v2 packs (issue 33), each within 10 minutes alone: BENCH_PAGED_LOTS sizes the generated pack (5M),
  // BENCH_R2_LATENCY_MS the latency of each range read (20 ms).
  ["pack-memory", runPackMemoryBenches],
  ["pack-reads", runPackReadsBenches],
  ["pack-speed", runPackSpeedBenches],
  // The streamed builder on generated cadastres of 0.5 GB and 2 GB (BENCH_PACK_BUILD_GB): is its peak memory flat?
  ["pack-build", runPackBuildBenches],
  // Site search over the synthetic Greater Sydney (built once per machine, about ten minutes).
  ["site-search", runSiteSearchBenches],
  // The model's ratings per main zone over the synthetic Greater Sydney (issues 35, 50); BENCH_RATINGS_EVERY samples.
  ["ratings", runRatingsBenches],
  // The alerts consumer (issue 37): a watched suburb's diff, and 1,000 alerts on one publish; BENCH_ALERTS_LOTS.
  ["alerts", runAlertsBenches],
  // The workspace in Chromium (issue 51): Sign in to a usable map, against the sign-in page's first paint.
  ["map-ready", runMapReadyBenches],
  // POST /sites/assemble over the world (issue 55), cold; BENCH_ASSEMBLE_LOTS or BENCH_ASSEMBLE_PACK pick the world.
  ["assemble", runAssembleBenches],
];

const only = process.argv[2];
for (const [name, run] of suites) {
  if (only && name !== only) continue;
  const t = performance.now();
  console.log(`\n== ${name}`);
  console.log(formatResults(await run()));
  console.log(`(${((performance.now() - t) / 1000).toFixed(1)} s)`);
}
