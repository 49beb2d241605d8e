// The work one thread does: survey a suburb's blocks, then build its lots and hand their records to its
// bucket files. A worker runs these on messages; a small world runs them in-process.
import { LOT_COLUMNS } from "../../src/packs/paged/index.ts";
import type { Pack } from "../../src/packs/types.ts";
import { BucketSink } from "./buckets.ts";
import { centresPack, type QuadFeatures, sharedPack } from "./context-packs.ts";
import type { WorldContext } from "./context.ts";
import { type CellCensus, censusOf, emitLots, suburbLots } from "./lots.ts";
import type { Extent } from "./plan.ts";
import type { StopFeature } from "./world-map.ts";
import { type WalkData, WalkIndex } from "./walk-index.ts";

// How often a long suburb reports the lots it has done.
const REPORT_EVERY = 2000;

export class WorldTasks {
  readonly ctx: WorldContext;
  private shared: Pack;
  private readonly sink: BucketSink;
  private readonly box: readonly number[];
  private centres: Pack | null = null;
  private walk: WalkIndex | null = null;

  constructor(ctx: WorldContext, dir: string, id: number, box: readonly number[]) {
    this.ctx = ctx;
    this.shared = sharedPack(ctx);
    this.sink = new BucketSink(dir, id, LOT_COLUMNS);
    this.box = box;
  }

  census(suburb: number): CellCensus[] {
    return censusOf(this.ctx, this.ctx.suburbs[suburb] as (typeof this.ctx.suburbs)[number]);
  }

  setCentres(f: QuadFeatures): void {
    this.centres = centresPack(f);
  }

  /** The stations and the world's bus stops every lot's nearest stop is measured to. */
  setStops(stops: readonly StopFeature[]): void {
    this.shared = sharedPack(this.ctx, stops);
  }

  /** The walking graph's distances every lot's walk to a station and a centre is measured from. */
  setWalk(data: WalkData): void {
    this.walk = new WalkIndex(data);
  }

  /** Builds a suburb's lots into the buckets; `centres` is how many centre pieces the survey promised. */
  build(suburb: number, extent: Extent, centres: number, onLots: (n: number) => void): number {
    if (!this.centres) throw new Error("the centres must be set before building lots");
    const s = this.ctx.suburbs[suburb];
    if (!s) throw new Error(`no suburb ${suburb}`);
    const built = suburbLots(this.ctx, s, extent);
    // The shared centres pack was made from the survey: the built suburb must draw exactly those.
    if (built.overlays.centres.length !== centres) {
      throw new Error(`${s.name}: ${built.overlays.centres.length} centre pieces built, ${centres} surveyed`);
    }
    let n = 0;
    emitLots(
      built,
      this.centres,
      this.shared,
      this.box,
      (key, tie, ring, values) => {
        this.sink.write(key, tie, ring, values);
        if (++n % REPORT_EVERY === 0) onLots(REPORT_EVERY);
      },
      this.walk,
    );
    onLots(n % REPORT_EVERY);
    return n;
  }

  close(): void {
    this.sink.close();
  }
}
