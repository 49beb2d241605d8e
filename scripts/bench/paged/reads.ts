// `npm run bench -- pack-reads`: range requests, bytes and latency per query on a 5M-lot v2 pack, as R2 would see.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { siteFacts } from "../../../src/assess/facts.ts";
import { MAX_PAGES_PER_REQUEST, pagesFor, pointArea } from "../../../src/packs/request-pages.ts";
import {
  clearRootMemo,
  headBytesOf,
  HEADER_BYTES,
  PageCache,
  pagedObjectMetadata,
  PagedPack,
  ReadBudget,
  type Snapshot,
  tileKey,
} from "../../../src/packs/paged/index.ts";
import { readAheadPoints } from "../../../src/packs/read-ahead.ts";
import { parcelAt, parcelByLot } from "../../../src/packs/spatial.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { BUFFER, tileBBox, tileOf } from "../../../src/tiles/math.ts";
import { pagedTile } from "../../../src/tiles/paged.ts";
import { forEachTileOverPages, TILE_MAX_GAP_BYTES, TILE_MAX_READS } from "../../../src/tiles/prebuilt-tiles.ts";
import type { BenchResult } from "../result.ts";
import type { BuildJob, BuildReport } from "./build-child.ts";
import { runChild } from "./child.ts";
import { benchLots, claim, lotsLabel, percentile, withTempDir } from "./common.ts";
import { FileSource } from "./file-source.ts";
import { type RangeRequest, R2Like, r2LatencyMs } from "./r2-like.ts";
import { draw, World } from "./world.ts";

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));

// One query's requests, named by what they fetched.
type Reads = {
  root: number;
  page: number;
  index: number;
  overview: number;
  stored: number;
  pages: number;
  bytes: number;
  ms: number;
};

function classify(s: Snapshot, reqs: readonly RangeRequest[], ms: number): Reads {
  const out: Reads = { root: 0, page: 0, index: 0, overview: 0, stored: 0, pages: 0, bytes: 0, ms };
  const offsets = s.root.pageOffsets;
  const indexStart = offsets[s.root.pageCount] as number;
  const overviewStart = s.root.overviewOffsets[0] as number;
  const storedStart = s.root.tileOffsets[0] as number;
  for (const r of reqs) {
    out.bytes += r.length;
    if (r.offset < s.header.dataStart) out.root++;
    else if (r.offset >= storedStart && s.root.tileOffsets.length > 1) out.stored++;
    else if (r.offset >= overviewStart && s.root.overviewOffsets.length > 1) out.overview++;
    else if (r.offset >= indexStart) out.index++;
    else {
      out.page++;
      // Pages whose first byte lies in the request: a merged run counts every page it holds.
      for (let p = 0; p < s.root.pageCount; p++) {
        const o = offsets[p] as number;
        if (o >= r.offset && o < r.offset + r.length) out.pages++;
      }
    }
  }
  return out;
}

type Summary = {
  n: number;
  mean: (k: keyof Reads) => number;
  max: (k: keyof Reads) => number;
  p50: (k: keyof Reads) => number;
  p50ms: number;
};
function summarise(xs: readonly Reads[]): Summary {
  const p50 = (k: keyof Reads) =>
    percentile(
      xs.map((x) => x[k]),
      0.5,
    );
  return {
    n: xs.length,
    mean: (k) => xs.reduce((s, x) => s + x[k], 0) / xs.length,
    max: (k) => Math.max(...xs.map((x) => x[k])),
    p50,
    p50ms: p50("ms"),
  };
}

const requests = (x: Reads) => x.root + x.page + x.index + x.overview + x.stored;
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

export async function runPackReadsBenches(): Promise<BenchResult[]> {
  const lots = benchLots();
  const label = lotsLabel(lots);
  const latency = r2LatencyMs();
  return withTempDir("bench-pack-reads-", async (dir) => {
    const path = join(dir, "city.pack");
    process.stderr.write(`building a ${label}-lot v2 pack ... `);
    const build = await runChild<BuildJob, BuildReport>(here("./build-child.ts"), { lots, out: path });
    process.stderr.write(`${build.stats.seconds.total.toFixed(0)} s\n`);
    const storedTiles = build.stats.stored;
    const file = await FileSource.open(path, { key: "public/bench-city@bench.pack" });
    const r2 = new R2Like(file, latency);
    const world = new World(lots);
    const quiet = { log: () => {} };
    // A reader as a fresh request in a warm isolate sees it: the root memoised, its own (empty) page cache.
    const coldCache = () => new PagedPack(r2, { ...quiet, cache: new PageCache() });
    const snapshot = await coldCache().snapshot();
    const lotAt = (k: number, salt: number) => Math.floor(draw(k, salt) * lots);
    const pointAt = (k: number, salt: number) => world.pointIn(lotAt(k, salt), draw(k, salt + 1), draw(k, salt + 2));
    const measure = async (pack: PagedPack, q: (p: PagedPack) => Promise<unknown>): Promise<Reads> => {
      r2.reset();
      const t = performance.now();
      await q(pack);
      return classify(snapshot, r2.reset(), performance.now() - t);
    };
    const pointQuery = (lon: number, lat: number) => async (p: PagedPack) => {
      if (!parcelAt(await pagesFor([p], [pointArea(lon, lat)]), lon, lat))
        throw new Error("bench point missed its lot");
    };

    // A cold isolate: nothing memoised, the root read first. The registry opens an object uploaded now with the
    // header-and-root length its metadata gives (as the uploader writes it from the file); one uploaded before has none.
    const headBytes = headBytesOf(pagedObjectMetadata((await file.getBytes(0, HEADER_BYTES)).data, file.key));
    const isolate: Reads[] = [];
    const unlisted: Reads[] = [];
    for (let k = 0; k < 40; k++) {
      const [lon, lat] = pointAt(k, 100);
      clearRootMemo();
      unlisted.push(await measure(new PagedPack(r2, { ...quiet, cache: new PageCache() }), pointQuery(lon, lat)));
      clearRootMemo();
      const listed = new PagedPack(r2, { ...quiet, cache: new PageCache(), headBytes });
      isolate.push(await measure(listed, pointQuery(lon, lat)));
    }
    await coldCache().snapshot();
    const cold: Reads[] = [];
    const warm: Reads[] = [];
    // Big enough for every page the 200 points touch, so the second pass reads nothing.
    const shared = new PagedPack(r2, { ...quiet, cache: new PageCache(2 ** 30) });
    const points = Array.from({ length: 200 }, (_, k) => pointAt(k, 200));
    for (const [lon, lat] of points) cold.push(await measure(coldCache(), pointQuery(lon, lat)));
    for (const [lon, lat] of points) await pointQuery(lon, lat)(shared);
    for (const [lon, lat] of points) warm.push(await measure(shared, pointQuery(lon, lat)));

    const tiles = async (z: number): Promise<Reads[]> => {
      const out: Reads[] = [];
      for (let k = 0; k < 40; k++) {
        const [lon, lat] = pointAt(k, 300 + z);
        out.push(await measure(coldCache(), (p) => pagedTile(p, tileOf(lon, lat, z))));
      }
      return out;
    };
    const z15 = await tiles(15);
    const z16 = await tiles(16);
    const z13 = await tiles(13);
    const z11 = await tiles(11);
    // Every z15 tile over the pack, planned from the root alone as the reader plans a cold tile (no bytes read):
    // a stored tile is one request.
    const probe = coldCache();
    const survey: { reads: number; bytes: number }[] = [];
    forEachTileOverPages(snapshot, 15, (t) => {
      const at = snapshot.root.storedTiles.get(tileKey(t.z, t.x, t.y));
      if (at !== undefined) {
        const bytes = (snapshot.root.tileOffsets[at + 1] as number) - (snapshot.root.tileOffsets[at] as number);
        survey.push({ reads: 1, bytes });
        return;
      }
      const nos = probe.pagesInBox(snapshot, tileBBox(t, BUFFER));
      if (nos.length === 0) return;
      // Within 2 reads where any plan is, else the fewest: what the reader plans for this tile.
      const plan = probe.planPages(snapshot, nos, new ReadBudget({ ranges: TILE_MAX_READS }));
      survey.push({ reads: plan.cost.ranges, bytes: plan.spanBytes });
    });

    // A batch's rows one after another, each reading what its point needs (src/batch/run.ts), one cache for the batch.
    const batch = (pts: readonly [number, number][]) => async (p: PagedPack) => {
      // As runBatch does: every point's pages read ahead in one plan, then the rows one after another.
      await readAheadPoints([p], pts);
      for (const [lon, lat] of pts) {
        const packs = await pagesFor([p], [pointArea(lon, lat)]);
        const parcel = parcelAt(packs, lon, lat);
        if (!parcel) throw new Error("bench row missed its lot");
        scoreSite(siteFacts(packs, parcel));
      }
    };
    const spread = Array.from({ length: 50 }, (_, k) => pointAt(k, 400));
    const suburb = world.suburbLots(lotAt(0, 500));
    const local = Array.from({ length: 50 }, (_, k) =>
      world.pointIn(suburb[Math.floor(draw(k, 501) * suburb.length)] as number, draw(k, 502), draw(k, 503)),
    );
    const spreadReads = await measure(coldCache(), batch(spread));
    const localReads = await measure(coldCache(), batch(local));

    const byLot: Reads[] = [];
    for (let k = 0; k < 50; k++) {
      const id = world.lotId(lotAt(k, 600));
      byLot.push(
        await measure(coldCache(), async (p) => {
          if (!parcelByLot(await pagesFor([p], [{ lotId: id }]), id)) throw new Error(`lot ${id} not found`);
        }),
      );
    }
    await file.close();

    const iso = summarise(isolate);
    const before = summarise(unlisted);
    const c = summarise(cold);
    const w = summarise(warm);
    const t15 = summarise(z15);
    const t16 = summarise(z16);
    const lot = summarise(byLot);
    const isoReq = isolate.map(requests);
    const beforeReq = percentile(unlisted.map(requests), 0.5);
    const coldReq = cold.map(requests);
    const multi = cold.filter((x) => x.pages > 1).length;
    const root = `root ${kib(snapshot.header.dataStart)} for ${snapshot.root.pageCount} pages`;
    const lat = `${latency} ms a request`;
    const tileNote = (s: Summary) =>
      `max ${s.max("page")}; ${s.mean("pages").toFixed(1)} pages spanned, pages between those needed read through (max ${s.max("pages")}), ${kib(s.p50("bytes"))} a tile p50, ${kib(s.max("bytes"))} max; p50 ${s.p50ms.toFixed(0)} ms at ${lat}; root memoised, cache cold`;
    const over = survey.filter((x) => x.reads > TILE_MAX_READS);
    const surveyBytes = survey.map((x) => x.bytes);
    const overviewNote = (s: Summary) =>
      `generalised zoning below z14; max ${s.max("overview")}, lots pages ${s.mean("page")}; ${kib(s.mean("bytes"))} a tile; p50 ${s.p50ms.toFixed(0)} ms at ${lat}; root memoised, cache cold`;
    return [
      {
        name: `cold parcel-at-point, cold isolate (${label} lots)`,
        value: percentile(isoReq, 0.5),
        unit: "requests",
        baseline: beforeReq,
        ratio: beforeReq / percentile(isoReq, 0.5),
        note: `${claim(Math.max(...isoReq) <= 2, "<= 2 (root once, then one page)")}; max ${Math.max(...isoReq)}: root ${iso.mean("root").toFixed(1)} + pages ${iso.mean("page").toFixed(2)}; ${root}, its length from the object's metadata; ${kib(iso.mean("bytes"))} a query; ${iso.n} points. Baseline: the same points on an object stored without the metadata (root ${before.mean("root").toFixed(1)} + pages ${before.mean("page").toFixed(2)}), same run`,
      },
      {
        name: "  its p50 latency",
        value: iso.p50ms,
        unit: "ms",
        baseline: before.p50ms,
        ratio: before.p50ms / iso.p50ms,
        note: `at ${lat} (BENCH_R2_LATENCY_MS); pagesFor + parcelAt; baseline as above`,
      },
      {
        name: "cold parcel-at-point, root memoised",
        value: c.mean("page"),
        unit: "requests",
        note: `max ${Math.max(...coldReq)}; ${multi} of ${c.n} points needed 2+ pages (page boxes overlap); ${c.mean("pages").toFixed(2)} pages, ${kib(c.mean("bytes"))} a query`,
      },
      { name: "  its p50 latency", value: c.p50ms, unit: "ms", note: `at ${lat}` },
      {
        name: "warm parcel-at-point (pages cached)",
        value: w.mean("page"),
        unit: "requests",
        note: `p50 ${w.p50ms.toFixed(3)} ms; the same 200 points again, a cache holding their pages`,
      },
      {
        name: "z15 tile (pagedTile)",
        value: t15.mean("page"),
        unit: "requests",
        note: `${claim(Math.max(...z15.map(requests)) <= 2, "<= 2 in all")}; ${tileNote(t15)}`,
      },
      {
        name: `  every z15 tile over the pack (${survey.length}), planned from the root`,
        value: Math.max(...survey.map((x) => x.reads)),
        unit: "requests max",
        note: `${claim(over.length === 0, "<= 2 for every tile")}; ${storedTiles.tiles} tiles at z14-z16 stored whole (${kib(storedTiles.bytes)}, their pages over ${MAX_PAGES_PER_REQUEST}, or further apart than 2 reads of at most ${kib(probe.readBytesLimit)}, or from z15 with more than ${kib(TILE_MAX_GAP_BYTES)} read through between them; surveyed and cut in ${storedTiles.seconds.toFixed(1)} s); ${kib(percentile(surveyBytes, 0.5))} a tile p50, ${kib(Math.max(...surveyBytes))} max`,
      },
      { name: "z16 tile (pagedTile)", value: t16.mean("page"), unit: "requests", note: tileNote(t16) },
      {
        name: "z13 tile (overview pages)",
        value: summarise(z13).mean("overview"),
        unit: "requests",
        note: overviewNote(summarise(z13)),
      },
      {
        name: "z11 tile (overview pages)",
        value: summarise(z11).mean("overview"),
        unit: "requests",
        note: overviewNote(summarise(z11)),
      },
      {
        name: "50-row batch spread over the pack",
        value: spreadReads.page,
        unit: "requests",
        note: `${claim(spreadReads.page <= 50, "<= 50 page reads")}; ${spreadReads.pages} pages (a point in 2+ page boxes reads each), ${(spreadReads.bytes / 2 ** 20).toFixed(1)} MiB, ${(spreadReads.ms / 1000).toFixed(2)} s at ${lat} (rows one after another); root memoised`,
      },
      {
        name: "50-row batch in one suburb",
        value: localReads.page,
        unit: "requests",
        note: `${localReads.pages} pages, ${kib(localReads.bytes)}, ${localReads.ms.toFixed(0)} ms: later rows share the first rows' pages`,
      },
      {
        name: "lot-id lookup (pagesFor + parcelByLot)",
        value: lot.mean("index") + lot.mean("page"),
        unit: "requests",
        note: `max ${Math.max(...byLot.map(requests))}: index page ${lot.mean("index").toFixed(1)} + data page ${lot.mean("page").toFixed(2)}; ${kib(lot.mean("bytes"))}; p50 ${lot.p50ms.toFixed(0)} ms; root memoised`,
      },
    ];
  });
}
