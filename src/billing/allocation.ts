// FIFO-by-expiry allocation, replayed from the ledger: which grant each debit consumed and what is left.
// Pure: works in integer ten-thousandths of a credit so sums are exact.

export interface ReplayEntry {
  id: string;
  seq: number;
  /** Exact decimal text as stored, e.g. "-0.1000". */
  amount: string;
  type: string;
  expiresAt: number | null;
  createdAt: number;
  relatedEntityId: string | null;
}

export interface Bucket {
  grantId: string;
  seq: number;
  expiresAt: number | null;
  /** Unspent credits of the grant, in ten-thousandths. */
  remaining: number;
  /** An `expiry` entry has been posted for this grant. */
  swept: boolean;
}

export interface DueExpiry {
  grantId: string;
  /** Credits to expire, as a positive number. */
  amount: number;
}

/** "-12.3400" -> -123400, exactly (no float arithmetic on the fraction). */
export function toUnits(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{0,4})\d*)?$/.exec(text.trim());
  if (!m) throw new RangeError(`not a credit amount: ${text}`);
  const units = Number(m[2]) * 10000 + Number((m[3] ?? "").padEnd(4, "0"));
  return m[1] === "-" ? -units : units;
}

const byExpiry = (a: Bucket, b: Bucket): number =>
  (a.expiresAt ?? Number.POSITIVE_INFINITY) - (b.expiresAt ?? Number.POSITIVE_INFINITY) || a.seq - b.seq;

// Live grants first, earliest expiry first (never-expiring last); credits past expiry that the job
// has not swept yet are a last resort, since the cached balance still counts them.
function consume(buckets: Bucket[], units: number, at: number): void {
  const live = buckets.filter((b) => b.remaining > 0 && (b.expiresAt === null || b.expiresAt > at)).sort(byExpiry);
  const lapsed = buckets.filter((b) => b.remaining > 0 && b.expiresAt !== null && b.expiresAt <= at).sort(byExpiry);
  let left = units;
  for (const b of [...live, ...lapsed]) {
    if (left === 0) break;
    const take = Math.min(b.remaining, left);
    b.remaining -= take;
    left -= take;
  }
}

/** Replays entries in ledger order and returns every credit grant with its unspent remainder. */
export function replay(entries: readonly ReplayEntry[]): Bucket[] {
  const buckets: Bucket[] = [];
  const byId = new Map<string, Bucket>();
  for (const e of [...entries].sort((a, b) => a.seq - b.seq)) {
    const units = toUnits(e.amount);
    if (units > 0) {
      const b: Bucket = { grantId: e.id, seq: e.seq, expiresAt: e.expiresAt, remaining: units, swept: false };
      buckets.push(b);
      byId.set(e.id, b);
      continue;
    }
    let owed = -units;
    const target = e.type === "expiry" && e.relatedEntityId ? byId.get(e.relatedEntityId) : undefined;
    if (target) {
      target.swept = true;
      const take = Math.min(target.remaining, owed);
      target.remaining -= take;
      owed -= take;
    }
    if (owed > 0) consume(buckets, owed, e.createdAt);
  }
  return buckets;
}

/** Grants past their expiry at `now` that still hold credits and have not been expired yet. */
export function dueExpiries(entries: readonly ReplayEntry[], now: number): DueExpiry[] {
  return replay(entries)
    .filter((b) => !b.swept && b.expiresAt !== null && b.expiresAt <= now && b.remaining > 0)
    .sort(byExpiry)
    .map((b) => ({ grantId: b.grantId, amount: b.remaining / 10000 }));
}
