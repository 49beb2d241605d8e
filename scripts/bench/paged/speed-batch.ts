// A 50-site batch row on the demo: v2 (precomputed facts) against today's v1 row (overlays cut per row).
// The v2 row is the batch route's own per-row code (src/batch/run.ts: locateSite, siteFacts, scoreSite).
import { openPacks } from "../../../src/packs/open-pack.ts";
import { siteFacts } from "../../../src/assess/facts.ts";
import type { CsvSiteRow } from "../../../src/batch/csv.ts";
import { locateSite } from "../../../src/batch/locate-row.ts";
import { pagesFor, pointArea } from "../../../src/packs/request-pages.ts";
import type { PackScope } from "../../../src/packs/scope.ts";
import { parcelAt, parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { ParcelHit } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import type { BenchResult } from "../result.ts";
import { median } from "../result.ts";
import { claim } from "./common.ts";
import type { Demo } from "./demo.ts";
import { perItem } from "./timing.ts";

export async function batchBench({ v1, v2 }: Demo): Promise<BenchResult[]> {
  const lots = v1.layers.get("parcels");
  if (!lots) throw new Error("demo has no parcels");
  const packs1 = [v1];
  // 50 sites spread over the demo, chosen as scripts/bench/assess.ts chooses them.
  const points: [number, number][] = [];
  for (let k = 0; k < 50; k++) {
    const { centroid } = parcelFromFeature(v1, Math.floor((k * lots.count) / 50));
    if (parcelAt(packs1, centroid[0], centroid[1])) points.push(centroid);
  }
  const n = points.length;
  const row1 = ([lon, lat]: [number, number]) => {
    const p = parcelAt(packs1, lon, lat);
    if (p) scoreSite(siteFacts(packs1, p));
  };
  // The scope a batch request over the public v2 demo has (src/packs/scope.ts), and the CSV rows of the sites.
  const root = (await v2.snapshot()).root.meta;
  const scope: PackScope = {
    visible: openPacks([v2]),
    coverage: [{ title: root.info.title ?? root.id, bbox: root.bbox, parcels: true }],
    at: (areas) => pagesFor([v2], areas),
  };
  const rows: CsvSiteRow[] = points.map(([lon, lat], index) => ({
    index,
    line: index + 2,
    input: { lat: String(lat), lon: String(lon) },
    extra: {},
    lat,
    lon,
  }));
  const row2 = async (row: CsvSiteRow) => {
    const { located, packs } = await locateSite(scope, row);
    if (located.ok) scoreSite(siteFacts(packs, located.parcel));
  };
  const located: { packs: readonly Pack[]; parcel: ParcelHit }[] = [];
  for (const row of rows) {
    const site = await locateSite(scope, row);
    if (!site.located.ok || !site.located.parcel.record)
      throw new Error("a demo site has no v2 lot with precomputed facts");
    located.push({ packs: site.packs, parcel: site.located.parcel });
  }
  const facts = located.map(({ packs, parcel }) => siteFacts(packs, parcel));
  for (let w = 0; w < 40; w++) {
    for (let k = 0; k < n; k++) {
      row1(points[k] as [number, number]);
      await row2(rows[k] as CsvSiteRow);
    }
  }
  const v1Row: number[] = [];
  const v2Row: number[] = [];
  const v2Locate: number[] = [];
  const pagesLocate: number[] = [];
  const v2Facts: number[] = [];
  const score: number[] = [];
  for (let rep = 0; rep < 9; rep++) {
    v1Row.push(await perItem(() => points.forEach(row1), n, 60));
    v2Row.push(
      await perItem(
        async () => {
          for (const row of rows) await row2(row);
        },
        n,
        60,
      ),
    );
    v2Locate.push(
      await perItem(
        async () => {
          for (const row of rows) await locateSite(scope, row);
        },
        n,
        30,
      ),
    );
    pagesLocate.push(
      await perItem(
        async () => {
          for (const [lon, lat] of points) parcelAt(await pagesFor([v2], [pointArea(lon, lat)]), lon, lat);
        },
        n,
        30,
      ),
    );
    v2Facts.push(await perItem(() => located.forEach(({ packs, parcel }) => void siteFacts(packs, parcel)), n, 20));
    score.push(await perItem(() => facts.forEach((f) => void scoreSite(f)), n, 30));
  }
  const a = median(v1Row);
  const b = median(v2Row);
  return [
    {
      name: `batch row on the demo (${n} sites): v2 locate + facts + score`,
      value: b,
      unit: "us/site",
      baseline: a,
      ratio: a / b,
      note: `${claim(a / b >= 3, ">= 3x faster")}; baseline today's v1 row (parcelAt + siteFacts cutting overlays + scoreSite) on the same sites; warm, median CPU of 9 interleaved rounds`,
    },
    {
      name: "  v2 locate: locateSite",
      value: median(v2Locate),
      unit: "us/site",
      note: "the lot under the point from its cached page (lotAtWarm), its hit and record built for it alone",
    },
    {
      name: "    before locateSite: pagesFor + parcelAt",
      value: median(pagesLocate),
      unit: "us/site",
      note: "the route's locate until now: a view of every page under the point, its lot found over them",
    },
    { name: "  v2 facts: siteFacts from the lot's columns", value: median(v2Facts), unit: "us/site" },
    { name: "  score: scoreSite", value: median(score), unit: "us/site", note: "the same in both paths" },
  ];
}
