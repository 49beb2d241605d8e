// A progress bar on stderr: the phase, a bar, lots per second and bytes read; redrawn in place on a terminal.

export type ProgressState = { phase: string; lots: number; bytes: number; done: number; total: number };

export type ProgressOptions = {
  // Draw at all (default: when stderr is a terminal, or lines every few seconds when it is not).
  show?: boolean;
  stream?: NodeJS.WriteStream;
  // Called at every update, drawn or not (the bench samples memory here).
  onUpdate?: (s: ProgressState) => void;
};

const WIDTH = 24;
const mb = (n: number) => (n / 1e6).toFixed(n < 1e8 ? 1 : 0);
const int = (n: number) => Math.round(n).toLocaleString("en-AU");

function clock(s: number): string {
  if (!Number.isFinite(s) || s < 0) return "--:--";
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
}

export class Progress {
  private readonly stream: NodeJS.WriteStream;
  private readonly show: boolean;
  private readonly tty: boolean;
  private readonly onUpdate?: (s: ProgressState) => void;
  private phase = "";
  private unit: "bytes" | "lots" = "lots";
  private total = 0;
  private startedAt = 0;
  private drawnAt = 0;

  constructor(opts: ProgressOptions = {}) {
    this.stream = opts.stream ?? process.stderr;
    this.tty = this.stream.isTTY === true;
    this.show = opts.show ?? true;
    this.onUpdate = opts.onUpdate;
  }

  /** Starts a phase measured in bytes (reading the input) or lots (computing facts). */
  start(phase: string, unit: "bytes" | "lots", total: number): void {
    this.phase = phase;
    this.unit = unit;
    this.total = total;
    this.startedAt = performance.now();
    this.drawnAt = 0;
  }

  update(lots: number, bytes: number): void {
    const done = this.unit === "bytes" ? bytes : lots;
    this.onUpdate?.({ phase: this.phase, lots, bytes, done, total: this.total });
    if (!this.show) return;
    const now = performance.now();
    // A terminal redraws ten times a second; a log gets a line every ten seconds.
    if (now - this.drawnAt < (this.tty ? 100 : 10_000)) return;
    this.drawnAt = now;
    this.draw(lots, bytes, now);
  }

  private draw(lots: number, bytes: number, now: number): void {
    const secs = Math.max(1e-3, (now - this.startedAt) / 1000);
    const done = this.unit === "bytes" ? bytes : lots;
    const frac = this.total > 0 ? Math.min(1, done / this.total) : 0;
    const fill = Math.round(frac * WIDTH);
    const bar = `[${"#".repeat(fill)}${"-".repeat(WIDTH - fill)}]`;
    const what =
      this.unit === "bytes"
        ? `${mb(bytes)} of ${mb(this.total)} MB read  ${mb(bytes / secs)} MB/s  ${int(lots)} lots`
        : `${int(lots)} of ${int(this.total)} lots`;
    const eta = frac > 0 ? secs / frac - secs : Number.NaN;
    const line = `${this.phase.padEnd(6)} ${bar} ${(frac * 100).toFixed(0).padStart(3)}%  ${what}  ${int(lots / secs)} lots/s  ${clock(secs)} (eta ${clock(eta)})`;
    this.stream.write(this.tty ? `\r${line}\x1b[K` : `${line}\n`);
  }

  /** Ends the phase with a final line. */
  finish(lots: number, bytes: number): void {
    this.onUpdate?.({ phase: this.phase, lots, bytes, done: this.total, total: this.total });
    if (!this.show) return;
    this.draw(lots, bytes, performance.now());
    if (this.tty) this.stream.write("\n");
  }

  /** A line of its own (between phases). */
  note(text: string): void {
    if (this.show) this.stream.write(`${text}\n`);
  }
}
