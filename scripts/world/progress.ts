// A progress bar on stderr: redrawn in place on a terminal, a line every few seconds otherwise (logs, CI).
const WIDTH = 24;

function clock(s: number): string {
  if (!Number.isFinite(s)) return "--:--";
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
}

/** Hears every step: the phase's label, steps done, its total (the dev stack's background build reports from it). */
export type ProgressListener = (label: string, done: number, total: number) => void;

export class Progress {
  private label = "";
  private unit = "";
  private total = 0;
  private done = 0;
  private started = 0;
  private drawnAt = 0;
  private readonly tty: boolean;
  private readonly out: NodeJS.WriteStream;
  private readonly quiet: boolean;

  private readonly listen: ProgressListener | undefined;

  constructor(quiet = false, out: NodeJS.WriteStream = process.stderr, listen?: ProgressListener) {
    this.listen = listen;
    this.out = out;
    this.tty = out.isTTY === true;
    this.quiet = quiet;
  }

  /** Starts a phase of `total` steps called `unit`. */
  phase(label: string, total: number, unit: string): void {
    this.end();
    this.label = label;
    this.unit = unit;
    this.total = total;
    this.done = 0;
    this.started = performance.now();
    this.drawnAt = 0;
    this.listen?.(label, 0, total);
    this.draw(true);
  }

  add(n: number): void {
    this.done += n;
    this.listen?.(this.label, this.done, this.total);
    this.draw(false);
  }

  private line(): string {
    const secs = (performance.now() - this.started) / 1000;
    const share = this.total > 0 ? Math.min(1, this.done / this.total) : 0;
    const filled = Math.round(share * WIDTH);
    const rate = secs > 0 ? this.done / secs : 0;
    const eta = rate > 0 ? (this.total - this.done) / rate : Number.POSITIVE_INFINITY;
    const bar = `${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}`;
    const count = `${this.done.toLocaleString("en-AU")}/${this.total.toLocaleString("en-AU")} ${this.unit}`;
    const speed = `${Math.round(rate).toLocaleString("en-AU")} ${this.unit}/s`;
    return `${this.label.padEnd(9)} ${bar} ${String(Math.round(share * 100)).padStart(3)}%  ${count}  ${speed}  ${clock(secs)} elapsed, eta ${clock(eta)}`;
  }

  private draw(force: boolean): void {
    if (this.quiet) return;
    const now = performance.now();
    const every = this.tty ? 100 : 5000;
    if (!force && now - this.drawnAt < every) return;
    this.drawnAt = now;
    if (this.tty) this.out.write(`\r${this.line()}\x1b[K`);
    else this.out.write(`${this.line()}\n`);
  }

  /** Draws the phase's final state on its own line. */
  end(): void {
    if (this.quiet || this.total === 0) return;
    if (this.tty) this.out.write(`\r${this.line()}\x1b[K\n`);
    else this.out.write(`${this.line()}\n`);
    this.total = 0;
  }
}
