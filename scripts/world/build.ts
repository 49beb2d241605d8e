// Builds the synthetic Greater Sydney as one v2 lots pack: survey every suburb's blocks (worker threads), size
// the world to the lots asked for, build each suburb's lots and their facts (worker threads), then write the
// pack in Hilbert order (a writer thread).
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { LOT_COLUMNS, LOT_ID_COLUMN, LOT_SUMMARY, type PackOptions } from "../../src/packs/paged/index.ts";
import { allocate, lotsOf } from "./allocate.ts";
import { groupQuads } from "./context-packs.ts";
import { characterIn, loadContext, type WorldContext, worldBox } from "./context.ts";
import type { CentreQuad } from "./lots.ts";
import { DEFAULT_LOTS, WORLD_AS_AT, WORLD_ID, WORLD_SEED, worldInfo } from "./meta.ts";
import { writePackFile } from "./pack-file.ts";
import { writeOnWorker } from "./write-worker.ts";
import type { Extent } from "./plan.ts";
import { Progress, type ProgressListener } from "./progress.ts";
import { InProcessRunner, type Runner, WorkerPool } from "./runner.ts";
import type { Suburb } from "./inputs.ts";
import { writeStreetsPack } from "./streets-pack.ts";
import { type CentreLand, townCentres } from "./town-centres.ts";
import { walkData } from "./walking.ts";
import { isSchedule11Station } from "../../src/scoring/rules/lmr-places.ts";
import { joinMaps, suburbMap } from "./world-map.ts";
import { pidAlive } from "../dev/pid-alive.ts";

export type WorldOptions = {
  out: string;
  // Where the streets pack goes (streets-pack.ts); default beside `out`, FILE.streets.pack.
  streetsOut?: string;
  seed?: number;
  // About this many lots (the suburbs' shares are scaled to it).
  lots?: number;
  // Only these suburbs (names), for small worlds and tests.
  suburbs?: readonly string[];
  // Repository root holding packs/sources (default: the working directory).
  root?: string;
  // Worker threads; 0 builds in this thread (default: one per core).
  threads?: number;
  quiet?: boolean;
  onProgress?: ProgressListener;
  // The pack's version string (the cache's content hash).
  version?: string;
  pageBytes?: number;
};

export type WorldResult = {
  out: string;
  lots: number;
  bytes: number;
  pages: number;
  seconds: number;
  streetsOut: string;
  streets: number;
  stops: number;
  blocks: number;
  streetsBytes: number;
};

/** The streets pack's file beside a lots pack's (FILE.pack gives FILE.streets.pack). */
export function streetsBeside(out: string): string {
  return `${out.replace(/\.pack$/, "")}.streets.pack`;
}

function selectSuburbs(ctx: WorldContext, names?: readonly string[]): number[] {
  if (!names) return ctx.suburbs.map((s) => s.index);
  const byName = new Map(ctx.suburbs.map((s) => [s.name, s.index]));
  return names.map((n) => {
    const i = byName.get(n);
    if (i === undefined) throw new Error(`no suburb named ${n} in the topology`);
    return i;
  });
}

// An interrupted build leaves its bucket files (hundreds of MB) and a partial pack: remove those of dead builds.
function sweepStale(dir: string): void {
  for (const name of readdirSync(dir)) {
    const m = /^\.world-(\d+)-|\.pack\.tmp-(\d+)$/.exec(name);
    const pid = Number(m?.[1] ?? m?.[2]);
    if (m && !pidAlive(pid)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

export async function buildWorld(opts: WorldOptions): Promise<WorldResult> {
  const started = performance.now();
  const seed = opts.seed ?? WORLD_SEED;
  const root = resolve(opts.root ?? ".");
  const out = resolve(opts.out);
  const ctx = loadContext(seed, root);
  const chosen = selectSuburbs(ctx, opts.suburbs);
  const box = worldBox(chosen.map((i) => ctx.suburbs[i] as WorldContext["suburbs"][number]));
  const progress = new Progress(opts.quiet, process.stderr, opts.onProgress);
  mkdirSync(dirname(out), { recursive: true });
  sweepStale(dirname(out));
  const dir = join(dirname(out), `.world-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  const threads = opts.threads ?? availableParallelism();
  const onLots = (n: number) => progress.add(n);
  const runner: Runner =
    threads > 0
      ? new WorkerPool(threads, { seed, root, dir, box }, onLots)
      : new InProcessRunner(ctx, dir, box, onLots);
  try {
    progress.phase("survey", chosen.length, "suburbs");
    const census = await Promise.all(
      chosen.map(async (i) => {
        const cells = await runner.census(i);
        progress.add(1);
        return cells;
      }),
    );
    const suburbCensus = chosen.map((i, k) => ({
      suburb: i,
      urbanShare: characterIn(ctx, ctx.suburbs[i] as WorldContext["suburbs"][number]).urban,
      cells: census[k] as (typeof census)[number],
    }));
    const { extents } = allocate(suburbCensus, opts.lots ?? DEFAULT_LOTS);
    const centres: CentreQuad[] = [];
    const land: CentreLand[] = [];
    const centreCounts = suburbCensus.map((c, k) => {
      let n = 0;
      const suburb = (ctx.suburbs[c.suburb] as Suburb).name;
      for (const cell of c.cells.slice(0, (extents[k] as Extent).urban)) {
        centres.push(...cell.centres);
        for (const p of cell.centres) land.push({ quad: p.quad, suburb });
        n += cell.centres.length;
      }
      return n;
    });
    await runner.setCentres(groupQuads(centres));
    // Streets, bus stops and blocks before the lots' facts: each lot's nearest stop is measured to these stops.
    const map = joinMaps(chosen.map((i, k) => suburbMap(ctx, ctx.suburbs[i] as Suburb, extents[k] as Extent)));
    await runner.setStops(map.stops);
    // The lots the plans hold: the census counts blocks one by one, before open land is joined over streets.
    const lots = map.lots;
    // Town centres by the stated rule, then every street point's walk to the nearest listed station and centre.
    const designated = townCentres(land);
    const listed = ctx.stations.filter((s) => isSchedule11Station(s.name));
    await runner.setWalk(walkData(map.walks, listed, designated.centres));
    const version = opts.version ?? `seed-${seed}`;
    const streetsOut = resolve(opts.streetsOut ?? streetsBeside(out));
    // Written while the threads build the lots; awaited at the end (a failure is handled then, not left unheard).
    const streetsWritten = writeStreetsPack(map.streets, map.stops, streetsOut, version, seed, root);
    streetsWritten.catch(() => {});
    progress.phase("lots", lots, "lots");
    // Biggest suburbs first, so the threads finish together.
    const expected = suburbCensus.map((c, k) => lotsOf(c.cells, extents[k] as Extent));
    const order = chosen.map((_, k) => k).sort((a, b) => (expected[b] as number) - (expected[a] as number) || a - b);
    await Promise.all(
      order.map((k) => runner.build(chosen[k] as number, extents[k] as Extent, centreCounts[k] as number)),
    );
    await runner.close();
    progress.phase("write", lots, "lots");
    const packOptions: PackOptions = {
      id: WORLD_ID,
      version,
      columns: LOT_COLUMNS,
      lotIdColumn: LOT_ID_COLUMN,
      summary: LOT_SUMMARY,
      asAt: WORLD_AS_AT,
      info: worldInfo(seed, root),
      ...(opts.pageBytes ? { pageBytes: opts.pageBytes } : {}),
      blocks: map.blocks,
    };
    const job = { dir, writers: runner.threads, out, opts: packOptions };
    const written =
      threads > 0
        ? await writeOnWorker(job, (n) => progress.add(n))
        : await writePackFile(dir, runner.threads, out, packOptions, (n) => progress.add(n));
    const streetsBytes = await streetsWritten;
    progress.end();
    if (written.features !== lots) throw new Error(`the plans held ${lots} lots, ${written.features} were built`);
    return {
      out,
      lots,
      bytes: written.bytes,
      pages: written.pages,
      seconds: (performance.now() - started) / 1000,
      streetsOut,
      streets: map.streets.length,
      stops: map.stops.length,
      blocks: map.blocks.zones.length,
      streetsBytes,
    };
  } finally {
    await runner.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
