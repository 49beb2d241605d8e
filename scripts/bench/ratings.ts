// `npm run bench -- ratings`: how the feasibility model rates the synthetic Greater Sydney, per main zone (issue 35
// item 3, issue 50 item 6): the share rated high and the distribution of ratings, with a check that no lot of a zone
// whose land use permits no housing (E4, SP2, RE1 among them) is rated high. Every lot (or every
// BENCH_RATINGS_EVERY-th) is scored from its stored facts and polygon, as a batch row would be. The printout is a check
// on the rules, not a target: the thresholds come from policy and planning practice.
import { featureToGeometry } from "../../src/geo/columns.ts";
import { clearRootMemo, PageCache, PagedPack, pagePack, readPlan } from "../../src/packs/paged/index.ts";
import { recordFacts } from "../../src/assess/facts.ts";
import { MODEL_VERSION, scoreSite } from "../../src/scoring/index.ts";
import type { PolicyArea, Rating } from "../../src/scoring/index.ts";
import { ensureWorld } from "../world/cache.ts";
import { cpuUs } from "./paged/common.ts";
import { FileSource } from "./paged/file-source.ts";
import type { BenchResult } from "./result.ts";

const EVERY = Math.max(1, Number(process.env.BENCH_RATINGS_EVERY ?? 1));
const RATINGS: Rating[] = ["high", "medium", "low"];
const AREAS: PolicyArea[] = ["tod", "lmr_inner", "lmr_outer", "none"];
// Zones the issue names: housing is prohibited there, so none may be rated high.
const NEVER_HIGH = ["E4", "SP2", "RE1"];

type Tally = {
  lots: number;
  rating: Record<Rating, number>;
  area: Record<PolicyArea, number>;
  scoreSum: number;
  noHousing: number; // lots whose land use permits no housing
  noHousingHigh: number; // of those, rated high (must be 0)
};
const tally = (): Tally => ({
  lots: 0,
  rating: { high: 0, medium: 0, low: 0 },
  area: { tod: 0, lmr_inner: 0, lmr_outer: 0, none: 0 },
  scoreSum: 0,
  noHousing: 0,
  noHousingHigh: 0,
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
        // As a batch row reads it (src/assess/facts.ts), its council included.
        const r = scoreSite(recordFacts(layer.record(i), featureToGeometry(layer, i)));
        const zone = r.dominantZone?.code ?? "(none)";
        const t = byZone.get(zone) ?? tally();
        byZone.set(zone, t);
        for (const x of [t, all]) {
          x.lots++;
          x.rating[r.rating]++;
          x.area[r.policy.area]++;
          x.scoreSum += r.score;
          if (!r.housingPermitted) {
            x.noHousing++;
            if (r.rating === "high") x.noHousingHigh++;
          }
        }
      }
    }
  }
  const cpuMs = (cpuUs() - c0) / 1000;

  const rows = [...byZone].sort((a, b) => b[1].lots - a[1].lots);
  const line = (zone: string, t: Tally) =>
    `${zone.padEnd(7)} ${String(t.lots).padStart(9)}  ${RATINGS.map((k) => `${k} ${pct(t.rating[k], t.lots).padStart(6)}`).join("  ")}  mean ${(t.scoreSum / Math.max(1, t.lots)).toFixed(1).padStart(5)}  no housing ${pct(t.noHousing, t.lots).padStart(6)}  ${AREAS.map((k) => `${k} ${pct(t.area[k], t.lots)}`).join(" ")}`;
  console.log(`${MODEL_VERSION} over ${all.lots.toLocaleString("en-AU")} lots (every ${EVERY}) of ${world.path}`);
  console.log(`zone         lots  ratings                                   score  land use           policy areas`);
  for (const [zone, t] of rows) console.log(line(zone, t));
  console.log(line("all", all));
  console.log(`share rated high: ${rows.map(([zone, t]) => `${zone} ${pct(t.rating.high, t.lots)}`).join(", ")}`);
  for (const zone of NEVER_HIGH) {
    const t = byZone.get(zone);
    const high = t?.rating.high ?? 0;
    console.log(`${zone}: ${t?.lots ?? 0} lots, ${high} rated high${high === 0 ? "" : "  <-- must be 0"}`);
  }
  console.log(`lots whose land use permits no housing rated high: ${all.noHousingHigh} (must be 0)`);

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
  for (const zone of NEVER_HIGH)
    results.push({
      name: `${zone} lots rated high (must be 0)`,
      value: byZone.get(zone)?.rating.high ?? 0,
      unit: "lots",
    });
  results.push({
    name: "lots with no housing permitted rated high (must be 0)",
    value: all.noHousingHigh,
    unit: "lots",
  });
  // What one lot costs to score here (reading its columns included); informative, no goal is claimed.
  const perLotUs = (cpuMs * 1000) / Math.max(1, all.lots);
  results.push({ name: "CPU per lot scored (facts from columns + scoreSite)", value: perLotUs, unit: "µs" });
  return results;
}
