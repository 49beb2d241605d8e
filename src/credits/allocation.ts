// FIFO-by-expiry allocation, replayed from the ledger: which grant each debit consumed and what is left.
// A refund goes back to the grants its debit consumed, so refunded credits expire with their grant.
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

/** Units one debit took from one bucket (what a refund of that debit may give back). */
interface Take {
  bucket: Bucket;
  units: number;
}

// Live grants first, earliest expiry first (never-expiring last); credits past expiry that the job
// has not swept yet are a last resort, since the cached balance still counts them.
function consume(buckets: Bucket[], units: number, at: number): Take[] {
  const live = buckets.filter((b) => b.remaining > 0 && (b.expiresAt === null || b.expiresAt > at)).sort(byExpiry);
  const lapsed = buckets.filter((b) => b.remaining > 0 && b.expiresAt !== null && b.expiresAt <= at).sort(byExpiry);
  const takes: Take[] = [];
  let left = units;
  for (const b of [...live, ...lapsed]) {
    if (left === 0) break;
    const take = Math.min(b.remaining, left);
    b.remaining -= take;
    left -= take;
    takes.push({ bucket: b, units: take });
  }
  return takes;
}

/**
 * Gives a refund back to the buckets its debits took from, the last taken first (the latest-expiring),
 * so refunded credits keep their grant's expiry. A grant already swept cannot be expired again under its
 * own key: what returns to it is a bucket of the refund's own, lapsed at once. Returns what had no take.
 */
function giveBack(takes: Take[], units: number, refund: ReplayEntry, buckets: Bucket[], byId: Map<string, Bucket>) {
  let left = units;
  for (let k = takes.length - 1; k >= 0 && left > 0; k--) {
    const take = takes[k] as Take;
    const n = Math.min(take.units, left);
    take.units -= n;
    left -= n;
    if (!take.bucket.swept) {
      take.bucket.remaining += n;
      continue;
    }
    let late = byId.get(refund.id);
    if (!late) {
      late = { grantId: refund.id, seq: refund.seq, expiresAt: take.bucket.expiresAt, remaining: 0, swept: false };
      buckets.push(late);
      byId.set(refund.id, late);
    }
    late.remaining += n;
  }
  return left;
}

/** Replays entries in ledger order and returns every credit grant with its unspent remainder. */
export function replay(entries: readonly ReplayEntry[]): Bucket[] {
  const buckets: Bucket[] = [];
  const byId = new Map<string, Bucket>();
  // A refund names the charged job its debit named (related_entity_id): what those debits took, per job.
  const takenFor = new Map<string, Take[]>();
  for (const e of [...entries].sort((a, b) => a.seq - b.seq)) {
    let units = toUnits(e.amount);
    if (units > 0) {
      const takes = e.type === "refund" && e.relatedEntityId ? takenFor.get(e.relatedEntityId) : undefined;
      if (takes) units = giveBack(takes, units, e, buckets, byId);
      if (units === 0) continue;
      const b: Bucket = { grantId: e.id, seq: e.seq, expiresAt: e.expiresAt, remaining: units, swept: false };
      buckets.push(b);
      if (!byId.has(e.id)) byId.set(e.id, b);
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
    if (owed === 0) continue;
    const takes = consume(buckets, owed, e.createdAt);
    if (e.type !== "expiry" && e.relatedEntityId)
      takenFor.set(e.relatedEntityId, [...(takenFor.get(e.relatedEntityId) ?? []), ...takes]);
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
