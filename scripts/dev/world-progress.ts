// How far the background world build is, as one percent over its phases, and when to say so: a console line now and
// then, and the marker in local R2 the Worker reads (src/packs/building.ts), written one at a time, latest wins.
import type { WorldBuilding } from "../../src/packs/building.ts";

// Each phase's share of the whole, from its time on a 2-core machine (survey 6 s, lots 142 s, write 41 s, upload ~10 s).
export const PHASE_WEIGHTS = { survey: 4, lots: 70, write: 21, upload: 5 } as const;
export type Phase = keyof typeof PHASE_WEIGHTS;
const ORDER = Object.keys(PHASE_WEIGHTS) as Phase[];

const isPhase = (p: string): p is Phase => p in PHASE_WEIGHTS;

/** The whole build's percent (0 to 99: 100 is the world published, when the marker is gone) at `done` of `total`. */
export function overallPercent(phase: string, done: number, total: number): number {
  if (!isPhase(phase)) return 0;
  const before = ORDER.slice(0, ORDER.indexOf(phase)).reduce((s, p) => s + PHASE_WEIGHTS[p], 0);
  const share = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  return Math.min(99, Math.floor(before + PHASE_WEIGHTS[phase] * share));
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export type ReportOptions = {
  packId: string;
  startedAt: number;
  now?: () => number;
  /** Puts the marker in local R2; one call at a time. */
  write: (marker: WorldBuilding) => Promise<void>;
  log: (line: string) => void;
  logEveryMs?: number;
  writeEveryMs?: number;
};

/** Hears the build's progress (scripts/world/progress.ts's listener) and reports it on both channels. */
export class BuildReport {
  private readonly o: Required<ReportOptions>;
  private state: { phase: string; done: number; total: number } = { phase: "survey", done: 0, total: 0 };
  private loggedAt = Number.NEGATIVE_INFINITY;
  private loggedPhase = "";
  private writtenAt = Number.NEGATIVE_INFINITY;
  private written: WorldBuilding | null = null;
  private inFlight: Promise<void> | null = null;
  private queued = false;
  private warned = false;

  constructor(opts: ReportOptions) {
    this.o = { now: Date.now, logEveryMs: 10_000, writeEveryMs: 2_000, ...opts };
  }

  /** The marker for the current state. */
  marker(): WorldBuilding {
    const { phase, done, total } = this.state;
    return {
      pack_id: this.o.packId,
      percent: overallPercent(phase, done, total),
      phase,
      started_at: new Date(this.o.startedAt).toISOString(),
    };
  }

  /** A step of the build: cheap, as it is called for every batch of lots. */
  readonly update = (phase: string, done: number, total: number): void => {
    this.state = { phase, done, total };
    const now = this.o.now();
    const changed = phase !== this.loggedPhase;
    if (changed || now - this.loggedAt >= this.o.logEveryMs) {
      this.loggedAt = now;
      this.loggedPhase = phase;
      const count =
        total > 0 ? ` (${phase}: ${done.toLocaleString("en-AU")} of ${total.toLocaleString("en-AU")})` : ` (${phase})`;
      this.o.log(
        `world: building in the background, ${this.marker().percent}%${count}, ${clock(now - this.o.startedAt)} elapsed`,
      );
    }
    if (changed || now - this.writtenAt >= this.o.writeEveryMs) this.schedule();
  };

  private schedule(): void {
    this.writtenAt = this.o.now();
    if (this.inFlight) {
      this.queued = true;
      return;
    }
    const m = this.marker();
    if (this.written && this.written.percent === m.percent && this.written.phase === m.phase) return;
    this.inFlight = this.o
      .write(m)
      .then(
        () => {
          this.written = m;
        },
        (err: unknown) => {
          // The build goes on: the marker only tells the Worker how far it is.
          if (!this.warned) this.o.log(`world: could not update the progress marker in local R2: ${String(err)}`);
          this.warned = true;
        },
      )
      .finally(() => {
        this.inFlight = null;
        if (this.queued) {
          this.queued = false;
          this.schedule();
        }
      });
  }

  /** Writes the latest state (if it is not written yet) and waits for every write to settle. */
  async flush(): Promise<void> {
    this.schedule();
    while (this.inFlight) await this.inFlight;
  }
}
