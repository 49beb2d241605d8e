// What one request may still read of packs by range (docs/design.md section 10): plans are judged against it before
// any read, so a request too large is refused whole, never half-read.
import { UnprocessableError } from "../../errors.ts";

/** A read's size: range requests, pages, the pages' bytes and the lots they hold. */
export type ReadCost = { ranges: number; pages: number; bytes: number; lots: number };
export type ReadLimit = keyof ReadCost;

// The order limits are judged in: a refusal names the first one over.
const LIMITS: readonly ReadLimit[] = ["lots", "bytes", "pages", "ranges"];

/** One request's allowance of reads, spent as its plans are made (a limit not given is unbounded). */
export class ReadBudget {
  readonly limit: Readonly<ReadCost>;
  private readonly remaining: ReadCost;

  constructor(limits: Partial<ReadCost> = {}) {
    const all = {
      ranges: limits.ranges ?? Infinity,
      pages: limits.pages ?? Infinity,
      bytes: limits.bytes ?? Infinity,
      lots: limits.lots ?? Infinity,
    };
    this.limit = Object.freeze({ ...all });
    this.remaining = all;
  }

  /** What is left of each limit. */
  get left(): Readonly<ReadCost> {
    return this.remaining;
  }

  /** The first limit (lots, bytes, pages, then ranges) `cost` goes over on top of what is spent, or null. */
  over(cost: Partial<ReadCost>): ReadLimit | null {
    for (const k of LIMITS) if ((cost[k] ?? 0) > this.remaining[k]) return k;
    return null;
  }

  /** Takes `cost` from what is left. */
  spend(cost: Partial<ReadCost>): void {
    for (const k of LIMITS) this.remaining[k] -= cost[k] ?? 0;
  }

  /** Holds `cost` back from the plans made until the returned release is called (a later read's share). */
  hold(cost: Partial<ReadCost>): () => void {
    this.spend(cost);
    let held = true;
    return () => {
      if (held) for (const k of LIMITS) this.remaining[k] += cost[k] ?? 0;
      held = false;
    };
  }
}

/** A plan over its request's budget was asked to be read: refused before any read (its caller should have said why). */
export class ReadBudgetError extends UnprocessableError {
  constructor(pack: string, limit: ReadLimit, need: number) {
    super(
      `Reading pack ${pack} here needs ${need.toLocaleString("en-AU")} ${limit}, more than this request may read: choose a smaller area`,
      [],
      "area_too_large",
    );
  }
}
