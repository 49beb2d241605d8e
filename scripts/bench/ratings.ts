// `npm run bench -- ratings`: how feasibility-v2 rates the synthetic Greater Sydney, per main zone (issue 35 item 3).
// Every lot (or every BENCH_RATINGS_EVERY-th) is scored from its stored facts and polygon, as a batch row would be.
// The printout is a check on the rules, not a target: the thresholds come from policy and planning practice.
import { featureToGeometry } from "../../src/geo/columns.ts";
import { clearRootMemo, PageCache, PagedPack, pagePack, readPlan } from "../../src/packs/paged/index.ts";
import { scoreSite } from "../../src/scoring/index.ts";
import type { PolicyArea, Rating, SiteFacts } from "../../src/scoring/index.ts";
import { ensureWorld } from "../world/cache.ts";
import { cpuUs } from "./paged/common.ts";
import { FileSource } from "./paged/file-source.ts";
import type { BenchResult } from "./result.ts";

const EVERY = Math.max(1, Number(process.env.BENCH_RATINGS_EVERY ?? 1));
const RATINGS: Rating[] = ["high", "medium", "low"];
const AREAS: PolicyArea[] = ["tod", "lmr_inner", "lmr_outer", "none"];

type Tally = { lots: number; rating: Record<Rating, number>; area: Record<PolicyArea, number>; scoreSum: number };
const tally = (): Tally => ({
  lots: 0,
  rating: { high: 0, medium: 0, low: 0 },
  area: { tod: 0, lmr_inner: 0, lmr_outer: 0, none: 0 },
  scoreSum: 0,
});

const pct = (n: number, of: number) => (of === 0 ? "0%" : `${((100 * n) / of).toFixed(1)}%`);

export async function runRatingsBenches(): Promise<BenchResult[]> {
  const world = await ensureWorld();
  const source = await FileSource.open(world.path, { key: "public/greater-sydney@ratings.pack", latencyMs: 0 });
  clearRootMemo();
  const pack = new PagedPack(source, { cache: new PageCache(8 * 1024 * 1024) });
  const s = await pack.snapshot();
  const byZone = new Map<string, Tally>();
  const all = tally();
  let seen = 0;
  const c0 = cpuUs();
  for (let from = 0; from < s.root.pageCount; from += 32) {
    const nos = Array.from({ length: Math.min(32, s.root.pageCount - from) }, (_, k) => from + k);
    const set = await readPlan(pack.planPages(s, nos));
    for (const page of set.pages) {
      const layer = pagePack(s, page).layers.get("parcels");
      if (!layer?.record) continue;
      for (let i = 0; i < layer.count; i++) {
        if (seen++ % EVERY !== 0) continue;
        const facts: SiteFacts = {
          ...layer.record(i).facts,
          polygon: featureToGeometry(layer, i) as SiteFacts["polygon"],
        };
        const r = scoreSite(facts);
        const zone = r.dominantZone?.code ?? "(none)";
        const t = byZone.get(zone) ?? tally();
        byZone.set(zone, t);
        for (const x of [t, all]) {
          x.lots++;
          x.rating[r.rating]++;
          x.area[r.policy.area]++;
          x.scoreSum += r.score;
        }
      }
    }
  }
  const cpuMs = (cpuUs() - c0) / 1000;

  const rows = [...byZone].sort((a, b) => b[1].lots - a[1].lots);
  const line = (zone: string, t: Tally) =>
    `${zone.padEnd(7)} ${String(t.lots).padStart(9)}  ${RATINGS.map((k) => `${k} ${pct(t.rating[k], t.lots).padStart(6)}`).join("  ")}  mean ${(t.scoreSum / Math.max(1, t.lots)).toFixed(1).padStart(5)}  ${AREAS.map((k) => `${k} ${pct(t.area[k], t.lots)}`).join(" ")}`;
  console.log(`feasibility-v2 over ${all.lots.toLocaleString("en-AU")} lots (every ${EVERY}) of ${world.path}`);
  console.log(`zone         lots  ratings                                   score  policy areas`);
  for (const [zone, t] of rows) console.log(line(zone, t));
  console.log(line("all", all));

  const results: BenchResult[] = [];
  for (const [zone, t] of rows) {
    for (const k of RATINGS)
      results.push({
        name: `${zone} lots rated ${k}`,
        value: (100 * t.rating[k]) / t.lots,
        unit: "%",
        note: `${t.lots} lots`,
      });
  }
  // What one lot costs to score here (reading its columns included); informative, no goal is claimed.
  const perLotUs = (cpuMs * 1000) / Math.max(1, all.lots);
  results.push({ name: "CPU per lot scored (facts from columns + scoreSite)", value: perLotUs, unit: "µs" });
  return results;
}
