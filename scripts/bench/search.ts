// `npm run bench -- site-search`: POST /sites/search's engine over the synthetic Greater Sydney (issue 34 figures),
// against a full scan of the same facts held in plain JS objects, measured in the same run; cold, by the search
// sidecar (issue 53) against the pages, in the same run, with the sidecar's bytes per lot and each sidecar search's
// peak memory; sorted by value (issue 54) against the same searches sorted by area, in the same run.
// BENCH_SEARCH_LOTS=5000000: the same at the size of NSW, on the paged benches' generated city (cached by content).
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { UnprocessableError } from "../../src/errors.ts";
import { openPacks, type VisiblePacks } from "../../src/packs/open-pack.ts";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import type { Pack } from "../../src/packs/types.ts";
import { clearRootMemo, PageCache, PagedPack } from "../../src/packs/paged/index.ts";
import { type SearchOutcome, searchSites } from "../../src/search/engine.ts";
import type { SearchArea, SearchFilters, SearchQuery } from "../../src/search/query.ts";
import { clearSearchTables } from "../../src/search/tables.ts";
import { buildSidecar } from "../../src/search/sidecar/build.ts";
import { SIDECAR_VERSION } from "../../src/search/sidecar/format.ts";
import { Sidecar } from "../../src/search/sidecar/reader.ts";
import { sidecarKey } from "../../src/search/sidecar/registry.ts";
import { ensureWorld } from "../world/cache.ts";
import { DEFAULT_LOTS } from "../world/meta.ts";
import { ensureCity } from "./paged/city-cache.ts";
import { runChild } from "./paged/child.ts";
import { claim, cpuUs, lotsLabel } from "./paged/common.ts";
import { FileSource } from "./paged/file-source.ts";
import { perItem } from "./paged/timing.ts";
import type { BenchResult } from "./result.ts";
import { coldPack, coldSearch } from "./search-cold.ts";
import type { PeakJob, PeakReport } from "./search-peak-child.ts";
import { type PlainLot, plainLots, plainSearch } from "./search-plain.ts";
import { DEFAULT_ASSUMPTIONS } from "../../src/value/defaults/assumptions.ts";

const LATENCY_MS = Number(process.env.BENCH_R2_LATENCY_MS ?? 20);
const BASE_PACK = "packs/sydney-suburbs.pack";
// The packs' share of the 128 MB isolate (issue 53), in MB as pack-memory claims it.
const PEAK_MB = 48;

type Cold = { out: SearchOutcome; wallMs: number; cpuMs: number; reads: number; bytes: number };
// A search the read budget refuses before reading (the engine's area_too_large), with its reason.
type Refused = { refused: string };

// A cold search (issue 53, scripts/bench/search-cold.ts): the pack's root is read within the search, one read long as
// R2's listing says (head_bytes); with `side`, the search sidecar attached, its head read within the search too.
async function cold(source: FileSource, base: Pack[], q: SearchQuery, side?: FileSource): Promise<Cold> {
  const pack = await coldPack(source, side);
  for (const s of [source, side]) {
    if (!s) continue;
    s.reads = 0;
    s.bytesRead = 0;
  }
  const t0 = performance.now();
  const c0 = cpuUs();
  const out = await coldSearch(base, pack, q, side !== undefined);
  const cpuMs = (cpuUs() - c0) / 1000;
  const wallMs = performance.now() - t0;
  const reads = source.reads + (side?.reads ?? 0);
  const bytes = source.bytesRead + (side?.bytesRead ?? 0);
  return { out, wallMs, cpuMs, reads, bytes };
}

/** The search's answer, or its refusal when the read budget turns the area down. */
async function orRefused<T>(run: Promise<T>): Promise<T | Refused> {
  try {
    return await run;
  } catch (e) {
    if (e instanceof UnprocessableError && e.type === "area_too_large") return { refused: e.message };
    throw e;
  }
}

const isRefused = (c: unknown): c is Refused => typeof c === "object" && c !== null && "refused" in c;

// Peak as the issue defines it, in a fresh process with --expose-gc: a collection at every read and with the answer.
const peakOf = (job: PeakJob) =>
  runChild<PeakJob, PeakReport>(fileURLToPath(new URL("./search-peak-child.ts", import.meta.url)), job);

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

// A filter as the rows name it: "R3/R4 ≥900 m², no flood/heritage, ≤800 m to a station".
function said(f: SearchFilters): string {
  const head = [f.zones?.join("/"), f.area_m2?.min !== undefined ? `≥${f.area_m2.min.toLocaleString("en-AU")} m²` : ""];
  return [
    head.filter(Boolean).join(" "),
    f.exclude ? `no ${f.exclude.join("/")}` : "",
    f.station_within_m !== undefined ? `≤${f.station_within_m} m to a station` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

// The search's world: the cached synthetic Greater Sydney (1.5M lots, or fewer), else the paged benches' generated
// city at the size asked (issue 53's 5M lots: three times Greater Sydney, NSW's size), each cached by content.
async function benchWorld(): Promise<{ path: string; city: boolean; builtS: number }> {
  // BENCH_SEARCH_PACK: a world pack file already built (an earlier generator's), when this one's is not cached.
  const pinned = process.env.BENCH_SEARCH_PACK;
  if (pinned) return { path: pinned, city: false, builtS: 0 };
  // BENCH_SEARCH_LOTS: a smaller world (the 50,000-lot test world) for a quick run, or above 1.5M the generated city.
  const raw = process.env.BENCH_SEARCH_LOTS;
  const lots = raw ? Number(raw) : DEFAULT_LOTS;
  if (!(Number.isInteger(lots) && lots >= 1000))
    throw new Error(`BENCH_SEARCH_LOTS wants a whole number of lots, not "${raw}"`);
  if (lots > DEFAULT_LOTS) return { ...(await ensureCity(lots)), city: true };
  return { path: (await ensureWorld(raw ? { lots } : {})).path, city: false, builtS: 0 };
}

// What a caller sees of an answer, to hold the two paths to the same one.
const answerOf = (o: SearchOutcome) =>
  JSON.stringify([o.count, o.stopped, o.results, o.next_cursor, o.bbox, o.areaRange]);

// The world's sidecar, built once beside the cached world (its head names the pack version it was built from).
async function worldSidecar(worldPath: string, pack: PagedPack): Promise<{ path: string; buildMs: number }> {
  const path = `${worldPath}.search`;
  const s = await pack.snapshot();
  if (existsSync(path)) {
    const f = await FileSource.open(path);
    const ok = await Sidecar.open(f).then(
      (sc) => sc.matches(s.root) && sc.head.v === SIDECAR_VERSION,
      () => false,
    );
    await f.close();
    if (ok) return { path, buildMs: 0 };
  }
  const t = performance.now();
  writeFileSync(path, await buildSidecar(pack, s));
  return { path, buildMs: performance.now() - t };
}

// The thread's CPU clock ticks coarsely (4 ms here): repeat until 400 ms are spent and average.
async function warmCpuMs(packs: VisiblePacks, q: SearchQuery): Promise<number> {
  await searchSites(packs, q);
  return (await perItem(() => searchSites(packs, q).then(() => undefined), 1, 400)) / 1000;
}

async function plainMs(lots: readonly PlainLot[], q: SearchQuery): Promise<number> {
  return (await perItem(() => void plainSearch(lots, q), 1, 400)) / 1000;
}

export async function runSiteSearchBenches(): Promise<BenchResult[]> {
  const world = await benchWorld();
  const base = [readPackBytes(readFileSync(BASE_PACK), "sydney-suburbs.pack")];
  const key = "public/greater-sydney@bench.pack";
  const source = await FileSource.open(world.path, { key, latencyMs: LATENCY_MS });
  clearRootMemo();
  const results: BenchResult[] = [];
  try {
    const probe = new PagedPack(source, { cache: new PageCache(8 * 1024 * 1024) });
    const s = await probe.snapshot();
    // The sidecar first: at 5M lots its build and the plain objects would otherwise share the heap.
    const built = await worldSidecar(world.path, probe);
    const lots = await plainLots(probe);
    // The issue's goals are set at Greater Sydney's 1.5M lots: a region's time may scale with its lots, memory not.
    const scale = world.city ? lots.length / DEFAULT_LOTS : 1;
    const scaled = (ms: number) => Math.round(ms * scale);
    const scaledSaid = (ms: number) =>
      scale > 1 ? `${scaled(ms)} ms (${ms} ms at 1.5M lots, scaled by lots)` : `${ms} ms`;
    // The LGA nearest 100,000 lots, as the issue's figure asks, and a suburb near 3,000 for the live count; the
    // generated city's names are no place search knows, so there a centred box of as many lots stands for each.
    const named = (column: "lga" | "suburb", want: number): { area: SearchArea; label: string; lots: number } => {
      if (world.city) {
        const [w, s0, e, n] = s.root.meta.bbox;
        const f = Math.sqrt(want / lots.length) / 2;
        const box: [number, number, number, number] = [
          (w + e) / 2 - f * (e - w),
          (s0 + n) / 2 - f * (n - s0),
          (w + e) / 2 + f * (e - w),
          (s0 + n) / 2 + f * (n - s0),
        ];
        const area: SearchArea = { bbox: box };
        const label = column === "lga" ? "a box of an LGA's lots" : "a box of a suburb's lots";
        return { area, label, lots: plainSearch(lots, { area }) };
      }
      const per = new Map<string, number>();
      for (const l of lots) {
        const name = l[column];
        if (name) per.set(name, (per.get(name) ?? 0) + 1);
      }
      const [name, count] = [...per].sort((a, b) => Math.abs(a[1] - want) - Math.abs(b[1] - want))[0] as [
        string,
        number,
      ];
      const area: SearchArea = column === "lga" ? { lga: name } : { suburb: name };
      return { area, label: column === "lga" ? `${name} LGA` : name, lots: count };
    };
    const council = named("lga", 1e5);
    const lga = council.label;
    const lgaLots = council.lots;
    const place = named("suburb", 3000);
    const suburb = place.label;
    const suburbLots = place.lots;
    // Every lot of the generated city is 15 m x 40 m (600 m²): there, the filters leave area out.
    const developer: SearchFilters = {
      zones: ["R3", "R4"],
      ...(world.city ? {} : { area_m2: { min: 900 } }),
      exclude: ["flood", "heritage"],
      station_within_m: 800,
    };
    const selective: SearchFilters = {
      zones: ["R4"],
      ...(world.city ? {} : { area_m2: { min: 1500 } }),
      station_within_m: 800,
    };
    const region = world.city ? `the whole city (${lotsLabel(lots.length)} lots)` : "all of Greater Sydney";
    const lgaQ: SearchQuery = { area: council.area, filters: developer };
    const lgaAll: SearchQuery = { area: council.area };
    const sydney: SearchQuery = { area: { bbox: s.root.meta.bbox }, filters: selective };
    const everything: SearchQuery = { area: { bbox: s.root.meta.bbox } };
    const side = await FileSource.open(built.path, { key: sidecarKey(source.key), latencyMs: LATENCY_MS });
    const suburbQ: SearchQuery = { area: place.area, filters: { zones: ["R2"] }, limit: 1 };

    // Cold: reads and bytes as R2 would serve them, with LATENCY_MS per read.
    const c1 = await cold(source, base, lgaQ);
    const c2 = await cold(source, base, lgaAll);
    // Past the read budget at the size of a state: the pages of a region are what the sidecar replaces.
    const c3 = await orRefused(cold(source, base, sydney));
    const tag = `${(lots.length / 1e6).toFixed(2)}M lots, ${s.root.pageCount} pages`;
    const expectCount = (c: Cold | Refused, q: SearchQuery) => {
      if (isRefused(c)) return;
      const n = plainSearch(lots, q);
      if (n !== c.out.count)
        throw new Error(`search counted ${c.out.count}, the plain scan ${n}: ${JSON.stringify(q)}`);
    };
    expectCount(c1, lgaQ);
    expectCount(c2, lgaAll);
    expectCount(c3, sydney);
    // The same searches by the sidecar, held to the same answers.
    const s1 = await cold(source, base, lgaQ, side);
    const s2 = await cold(source, base, lgaAll, side);
    const s3 = await orRefused(cold(source, base, sydney, side));
    expectCount(s3, sydney);
    for (const [a, b, q] of [
      [c1, s1, lgaQ],
      [c2, s2, lgaAll],
      [c3, s3, sydney],
    ] as const) {
      if (isRefused(a) || isRefused(b)) continue;
      if (answerOf(a.out) !== answerOf(b.out)) throw new Error(`the sidecar answered otherwise: ${JSON.stringify(q)}`);
    }
    // Every lot of the region, count and first page: the pages would pass the read budget; the sidecar reads it.
    const s4 = await orRefused(cold(source, base, everything, side));
    expectCount(s4, everything);
    // Peak, as pack-memory measures it, of each sidecar search (a fresh process each, with the reads' latency).
    const job = (query: SearchQuery): PeakJob => ({
      pack: world.path,
      key,
      sidecar: built.path,
      base: BASE_PACK,
      query,
      latencyMs: LATENCY_MS,
    });
    const peaks: [string, Cold | Refused, PeakReport | null][] = [];
    for (const [name, c, q] of [
      [`${lga}, ${said(developer)}`, s1, lgaQ],
      [`${region}, ${said(selective)}`, s3, sydney],
      [`${region}, every lot (count and first page)`, s4, everything],
    ] as const) {
      peaks.push([name, c, isRefused(c) ? null : await peakOf(job(q))]);
    }
    // Sorted by value: each lot priced on the (default) assumptions from the sidecar's figures; the same lots counted.
    const assumptions = { ...DEFAULT_ASSUMPTIONS, version: 0 };
    const lgaValue: SearchQuery = { ...lgaQ, sort: "value", assumptions };
    const lgaAllValue: SearchQuery = { ...lgaAll, sort: "value", assumptions };
    const v1 = await cold(source, base, lgaValue, side);
    const v2 = await cold(source, base, lgaAllValue, side);
    const p1 = await cold(source, base, lgaValue);
    for (const [v, a] of [
      [v1, s1],
      [v2, s2],
      [p1, c1],
    ] as const) {
      if (v.out.count !== a.out.count)
        throw new Error(`sorted by value, ${v.out.count} matches; by area ${a.out.count}`);
    }
    if (answerOf(v1.out) !== answerOf(p1.out)) throw new Error("sorted by value, the sidecar answered otherwise");
    const refusedRow = (name: string, c: Refused): BenchResult => ({
      name,
      value: Number.NaN,
      unit: "ms",
      note: `refused before any read: ${c.refused}`,
    });
    for (const [name, c] of [
      [`cold: ${lga} (${lgaLots} lots), ${said(developer)}`, c1],
      [`cold: ${lga}, every lot`, c2],
      [`cold: ${region}, ${said(selective)}`, c3],
    ] as const) {
      if (isRefused(c)) {
        results.push(refusedRow(name, c));
        continue;
      }
      results.push({
        name,
        value: c.wallMs,
        unit: "ms",
        note: `${c.out.count} matches; ${c.reads} reads (${c.out.work.ranges} ranges), ${(c.bytes / 1e6).toFixed(1)} MB, pages read ${c.out.work.pagesRead} of ${c.out.work.pagesInArea} (${c.out.work.pagesSkipped} skipped by summaries), CPU ${c.cpuMs.toFixed(0)} ms; ${LATENCY_MS} ms a read`,
      });
    }
    const sideBytes = statSync(built.path).size;
    const sideNote = (c: Cold, old: Cold | Refused | null) =>
      `${c.out.count} matches; ${c.reads} reads, ${(c.bytes / 1e6).toFixed(1)} MB (${c.out.work.blocksRead} blocks, ${c.out.work.pagesRead} result pages), CPU ${c.cpuMs.toFixed(0)} ms${old && !isRefused(old) ? ` (pages: ${old.cpuMs.toFixed(0)} ms, ${(old.bytes / 1e6).toFixed(1)} MB); same answer as the pages` : ""}`;
    results.push({
      name: "search sidecar: bytes per lot",
      value: sideBytes / lots.length,
      unit: "B/lot",
      note: `${(sideBytes / 1e6).toFixed(1)} MB for ${lots.length} lots (the pack: ${((s.root.pageOffsets[s.root.pageCount] as number) / lots.length) | 0} B/lot of pages); ${built.buildMs > 0 ? `built in ${(built.buildMs / 1000).toFixed(1)} s` : "cached beside the world"}${world.builtS > 0 ? `; the city built in ${world.builtS.toFixed(0)} s` : ""}`,
    });
    // A council area's goal stands at any size; a region's scales with its lots.
    for (const [name, c, old, goal] of [
      [`cold by sidecar: ${lga}, ${said(developer)}`, s1, c1, { ms: 300, said: "300 ms" }],
      [`cold by sidecar: ${lga}, every lot`, s2, c2, null],
      [`cold by sidecar: ${region}, ${said(selective)}`, s3, c3, { ms: scaled(1500), said: scaledSaid(1500) }],
      [
        `cold by sidecar: ${region}, every lot (count and first page)`,
        s4,
        null,
        { ms: scaled(2000), said: scaledSaid(2000) },
      ],
    ] as const) {
      const claimed = (holds: boolean) => (goal ? `${claim(holds, `at most ${goal.said}`)}; ` : "");
      if (isRefused(c)) {
        results.push({ ...refusedRow(name, c), note: `${claimed(false)}refused before any read: ${c.refused}` });
        continue;
      }
      const vs = old && !isRefused(old) ? { baseline: old.wallMs, ratio: old.wallMs / c.wallMs } : {};
      results.push({
        name,
        value: c.wallMs,
        unit: "ms",
        ...vs,
        note: `${claimed(goal !== null && c.wallMs <= goal.ms)}${sideNote(c, old)}`,
      });
    }
    for (const [name, v, a, goal] of [
      [`cold by sidecar, sorted by value: ${lga}, ${said(developer)}`, v1, s1, 300],
      [`cold by sidecar, sorted by value: ${lga}, every lot`, v2, s2, 300],
      [`cold by pages, sorted by value (no sidecar): ${lga}, ${said(developer)}`, p1, c1, null],
    ] as const) {
      results.push({
        name,
        value: v.wallMs,
        unit: "ms",
        baseline: a.wallMs,
        ratio: a.wallMs / v.wallMs,
        note: `${goal !== null ? `${claim(v.wallMs <= goal, `at most ${goal} ms`)}; ` : ""}baseline: the same search sorted by area; ${v.out.count} matches; ${v.reads} reads, ${(v.bytes / 1e6).toFixed(1)} MB, CPU ${v.cpuMs.toFixed(0)} ms (by area ${a.cpuMs.toFixed(0)} ms)`,
      });
    }
    if (!isRefused(s3)) {
      results.push({
        name: `claim: ${region} by sidecar, selective filter: CPU`,
        value: s3.cpuMs,
        unit: "ms",
        ...(isRefused(c3) ? {} : { baseline: c3.cpuMs, ratio: c3.cpuMs / s3.cpuMs }),
        note: `${claim(s3.cpuMs <= scaled(500), `at most ${scaledSaid(500)} CPU`)}; baseline: the same search by pages${isRefused(c3) ? " (refused by the read budget)" : ""}`,
      });
    }
    // Retained, as pack-memory counts it: node, the modules and the base pack included, against the packs' share.
    for (const [name, c, p] of peaks) {
      if (!p || isRefused(c)) continue;
      const own = p.peaks.retained - p.before;
      results.push({
        name: `peak: ${name}`,
        value: p.peaks.retained / 1e6,
        unit: "MB",
        note: `${claim(p.peaks.retained <= PEAK_MB * 1e6, `within the packs' ${PEAK_MB} MB share`)}; heap + array buffers after a collection at each of ${p.peaks.samples} reads and with the answer, cold, a fresh process; the search's own +${mb(own)} MB over ${mb(p.before)} MB before it (node, modules, ${BASE_PACK}); ${mb(p.peaks.live)} MB with garbage not yet collected`,
      });
    }
    await side.close();
    const paged = [c1, c2, c3].filter((c): c is Cold => !isRefused(c));
    results.push({
      name: "claim: reads per search",
      value: Math.max(...paged.map((c) => c.reads)),
      unit: "reads",
      note: claim(Math.max(...paged.map((c) => c.reads)) <= 50, "at most about 50 range reads"),
    });

    // Warm: the same isolate again (facts tables cached), against the plain scan of the same facts.
    const warmPack = new PagedPack(source, { cache: new PageCache() });
    const packs: VisiblePacks = openPacks([...base, warmPack]);
    clearSearchTables();
    for (const [name, q, goal] of [
      [`warm: ${lga} (${lgaLots} lots), developer's filters`, lgaQ, 50],
      [`warm: ${lga}, every lot`, lgaAll, 50],
      [`warm: count for the live update, ${suburb} (${suburbLots} lots), R2`, suburbQ, 20],
      [`warm: ${region}, ${said(selective)}`, sydney, 1000],
    ] as const) {
      const ms = await orRefused(warmCpuMs(packs, q));
      if (isRefused(ms)) {
        results.push(refusedRow(name, ms));
        continue;
      }
      const base0 = await plainMs(lots, q);
      results.push({
        name,
        value: ms,
        unit: "ms CPU",
        baseline: base0,
        ratio: base0 / ms,
        note: `baseline: scan of ${lots.length} plain objects; ${claim(ms <= goal, `at most ${goal} ms`)}`,
      });
    }
    results.push({ name: "world", value: lots.length, unit: "lots", note: tag });
  } finally {
    await source.close();
  }
  return results;
}
