// Scoring benchmark: CPU time per site over a 50-site batch, against serialising the same results.
import { pathToFileURL } from "node:url";
import { formatResults, median } from "./result.ts";
import type { BenchResult } from "./result.ts";
import { scoreSite } from "../../src/scoring/score.ts";
import type { FeasibilityResult, LotPolygon, SiteFacts } from "../../src/scoring/types.ts";

const R = 6_371_008.8;
const DEG = Math.PI / 180;

// Deterministic pseudo-random numbers so every run measures the same sites.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function ring(lat0: number, lon0: number, pts: [number, number][]): number[][] {
  const kx = R * Math.cos(lat0 * DEG) * DEG;
  const out = pts.map(([x, y]) => [lon0 + x / kx, lat0 + y / (R * DEG)]);
  const first = out[0];
  if (first) out.push(first.slice());
  return out;
}

// Cadastre-like lots: rotated rectangles, wobbly many-vertex outlines, and two-part lots.
function lotPolygon(rand: () => number, lat: number, lon: number, i: number): { polygon: LotPolygon; areaM2: number } {
  const w = 12 + rand() * 30;
  const d = 25 + rand() * 40;
  const a = rand() * Math.PI;
  const rot = ([x, y]: [number, number]): [number, number] => [
    x * Math.cos(a) - y * Math.sin(a),
    x * Math.sin(a) + y * Math.cos(a),
  ];
  if (i % 3 === 0) {
    const rect: [number, number][] = [
      [0, 0],
      [w, 0],
      [w, d],
      [0, d],
    ];
    return { polygon: { type: "Polygon", coordinates: [ring(lat, lon, rect.map(rot))] }, areaM2: w * d };
  }
  if (i % 3 === 1) {
    const n = 40;
    const pts: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      const t = (2 * Math.PI * k) / n;
      const r = 1 + 0.08 * Math.sin(5 * t) + 0.03 * rand();
      pts.push(rot([(w / 2) * r * Math.cos(t), (d / 2) * r * Math.sin(t)]));
    }
    return { polygon: { type: "Polygon", coordinates: [ring(lat, lon, pts)] }, areaM2: (Math.PI * w * d) / 4 };
  }
  const a1: [number, number][] = [
    [0, 0],
    [w, 0],
    [w, d],
    [0, d],
  ];
  const a2: [number, number][] = [
    [w + 2, 0],
    [2 * w + 2, 0],
    [2 * w + 2, d / 2],
    [w + 2, d / 2],
  ];
  return {
    polygon: { type: "MultiPolygon", coordinates: [[ring(lat, lon, a1.map(rot))], [ring(lat, lon, a2.map(rot))]] },
    areaM2: 1.5 * w * d,
  };
}

const ZONES = [
  { code: "R2", name: "Low Density Residential", fsr: 0.5, heightM: 8.5, minLotSizeM2: 450 },
  { code: "R3", name: "Medium Density Residential", fsr: 0.75, heightM: 9.5, minLotSizeM2: 300 },
  { code: "R4", name: "High Density Residential", fsr: 1.8, heightM: 21, minLotSizeM2: null },
  { code: "MU1", name: "Mixed Use", fsr: 2.5, heightM: 30, minLotSizeM2: null },
  { code: "RE1", name: "Public Recreation", fsr: null, heightM: null, minLotSizeM2: null },
] as const;

export function benchSites(count = 50, seed = 42): SiteFacts[] {
  const rand = rng(seed);
  const sites: SiteFacts[] = [];
  for (let i = 0; i < count; i++) {
    const lat = -33.7 - rand() * 0.3;
    const lon = 150.9 + rand() * 0.4;
    const { polygon, areaM2 } = lotPolygon(rand, lat, lon, i);
    const z1 = ZONES[i % ZONES.length]!;
    const z2 = ZONES[(i + 2) % ZONES.length]!;
    const split = i % 4 === 0 ? 0.7 : 1;
    const zones = [{ ...z1, share: split }];
    if (split < 1) zones.push({ ...z2, share: 1 - split });
    sites.push({
      lotId: `${i + 1}/DP${100000 + i}`,
      areaM2,
      polygon,
      zones,
      hazards: { flood: i % 5 === 0 ? rand() : 0, bushfire: i % 7 === 0 ? rand() : 0 },
      heritageShare: i % 9 === 0 ? rand() : 0,
      heritageNames: i % 9 === 0 ? ["Federation cottage"] : [],
      nearestStop: i % 11 === 0 ? null : { name: `Stop ${i}`, mode: i % 2 ? "bus" : "train", distanceM: rand() * 2000 },
      demoData: true,
    });
  }
  return sites;
}

// Main-thread CPU time, so GC and JIT helper threads do not inflate the figure.
function cpuMicros(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

// One sample: repeats `fn` over the batch until `ms` of CPU time is spent; microseconds per site.
function sample(sites: readonly SiteFacts[], fn: (s: SiteFacts, i: number) => void, ms: number): number {
  let rounds = 0;
  const start = cpuMicros();
  let spent = 0;
  while (spent < ms * 1000) {
    sites.forEach(fn);
    rounds++;
    spent = cpuMicros() - start;
  }
  return spent / (rounds * sites.length);
}

// Interleaved samples and medians, so a busy neighbour on the machine skews both sides alike.
function compare(
  sites: readonly SiteFacts[],
  a: (s: SiteFacts, i: number) => void,
  b: (s: SiteFacts, i: number) => void,
  minMs: number,
): [number, number] {
  for (let w = 0; w < 200; w++) {
    sites.forEach(a);
    sites.forEach(b);
  }
  const samples = 9;
  const as: number[] = [],
    bs: number[] = [];
  for (let k = 0; k < samples; k++) {
    as.push(sample(sites, a, minMs / samples));
    bs.push(sample(sites, b, minMs / samples));
  }
  return [median(as), median(bs)];
}

export async function runScoringBenches(opts: { minMs?: number } = {}): Promise<BenchResult[]> {
  const minMs = opts.minMs ?? 900;
  const sites = benchSites(50);
  const results: FeasibilityResult[] = sites.map(scoreSite);
  let sink = 0;
  const [scoreUs, jsonUs] = compare(
    sites,
    (s) => {
      sink += scoreSite(s).score;
    },
    (_s, i) => {
      sink += JSON.stringify(results[i]).length;
    },
    minMs,
  );
  if (sink === -1) console.log(sink); // keeps the work observable to the optimiser
  const r = (x: number) => Math.round(x * 100) / 100;
  return [
    {
      name: "scoring.scoreSite.per_site",
      value: r(scoreUs),
      unit: "µs/site",
      baseline: r(jsonUs),
      ratio: r(jsonUs / scoreUs),
      note: "50-site batch (rectangles, 40-vertex outlines, two-part lots); baseline = JSON.stringify of the same result; ratio = baseline / value, so 0.5 means scoring costs twice the serialising",
    },
    {
      name: "scoring.scoreSite.batch50",
      value: r((scoreUs * 50) / 1000),
      unit: "ms/batch",
      note: "CPU time to score a full 50-row upload",
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResults(await runScoringBenches()));
}
