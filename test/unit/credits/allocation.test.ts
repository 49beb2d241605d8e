// FIFO-by-expiry replay: pure, exact to the ten-thousandth.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dueExpiries, replay, toUnits, type ReplayEntry } from "../../../src/credits/allocation.ts";

const H = 3_600_000;
let seq = 0;
const entry = (id: string, amount: string, at: number, extra: Partial<ReplayEntry> = {}): ReplayEntry => ({
  id,
  seq: ++seq,
  amount,
  type: Number(amount) > 0 ? "purchase" : "usage",
  expiresAt: null,
  createdAt: at,
  relatedEntityId: null,
  ...extra,
});

describe("allocation", () => {
  it("parses stored decimals exactly", () => {
    expect(toUnits("0.1000")).toBe(1000);
    expect(toUnits("-12.3456")).toBe(-123456);
    expect(toUnits("7")).toBe(70000);
    expect(() => toUnits("abc")).toThrow(RangeError);
  });

  it("spends the earliest-expiring live grant first, never-expiring last", () => {
    const entries = [
      entry("forever", "3.0000", 0),
      entry("late", "5.0000", 0, { expiresAt: 2 * H }),
      entry("early", "5.0000", 0, { expiresAt: H }),
      entry("spend", "-7.0000", 10),
    ];
    expect(Object.fromEntries(replay(entries).map((b) => [b.grantId, b.remaining / 10000]))).toEqual({
      forever: 3,
      late: 3,
      early: 0,
    });
    expect(dueExpiries(entries, 3 * H)).toEqual([{ grantId: "late", amount: 3 }]);
    expect(dueExpiries(entries, 1.5 * H)).toEqual([]);
  });

  it("a lapsed but unswept grant is spent only after live ones", () => {
    const entries = [
      entry("lapsed", "5.0000", 0, { expiresAt: H }),
      entry("live", "3.0000", 0),
      entry("spend", "-4.0000", 2 * H),
    ];
    expect(dueExpiries(entries, 2 * H)).toEqual([{ grantId: "lapsed", amount: 4 }]);
  });

  it("a swept grant is not due again", () => {
    const entries = [
      entry("g", "2.5000", 0, { expiresAt: H }),
      entry("x", "-2.5000", 2 * H, { type: "expiry", relatedEntityId: "g" }),
    ];
    expect(dueExpiries(entries, 3 * H)).toEqual([]);
    expect(replay(entries)[0]).toMatchObject({ remaining: 0, swept: true });
  });

  it("a refund of credits from an expiring grant goes back to that grant: the 4.3 credits expire with it", () => {
    // Issue 31: a job charged 4.3 from a grant expiring at H and was refunded after H; the refund became a
    // grant of its own that never expired.
    const entries = [
      entry("grant", "5.0000", 0, { type: "subscription_grant", expiresAt: H }),
      entry("debit", "-4.3000", H - 60_000, { relatedEntityId: "job-1" }),
      entry("refund", "4.3000", H + 60_000, { type: "refund", relatedEntityId: "job-1" }),
    ];
    expect(dueExpiries(entries, 2 * H)).toEqual([{ grantId: "grant", amount: 5 }]);
    // Refunded before the expiry: the same, and nothing is due before H.
    const early = [entries[0], entries[1], { ...(entries[2] as ReplayEntry), createdAt: H - 30_000 }] as ReplayEntry[];
    expect(dueExpiries(early, H - 1)).toEqual([]);
    expect(dueExpiries(early, 2 * H)).toEqual([{ grantId: "grant", amount: 5 }]);
  });

  it("a refund landing after its grant was swept is due at once under the refund's own id", () => {
    const entries = [
      entry("grant", "5.0000", 0, { type: "subscription_grant", expiresAt: H }),
      entry("debit", "-4.3000", H - 60_000, { relatedEntityId: "job-1" }),
      entry("x", "-0.7000", H + 10_000, { type: "expiry", relatedEntityId: "grant" }),
      entry("refund", "4.3000", H + 60_000, { type: "refund", relatedEntityId: "job-1" }),
    ];
    expect(dueExpiries(entries, H + 120_000)).toEqual([{ grantId: "refund", amount: 4.3 }]);
    const swept = [...entries, entry("y", "-4.3000", H + 180_000, { type: "expiry", relatedEntityId: "refund" })];
    expect(dueExpiries(swept, 3 * H)).toEqual([]);
  });

  it("a partial refund gives back the last credits taken first: the never-expiring ones", () => {
    const entries = [
      entry("forever", "3.0000", 0),
      entry("grant", "5.0000", 0, { expiresAt: H }),
      entry("debit", "-7.0000", 10, { relatedEntityId: "job-1" }),
      entry("refund", "2.5000", 20, { type: "refund", relatedEntityId: "job-1" }),
    ];
    expect(Object.fromEntries(replay(entries).map((b) => [b.grantId, b.remaining / 10000]))).toEqual({
      forever: 3,
      grant: 0.5,
    });
    expect(dueExpiries(entries, 2 * H)).toEqual([{ grantId: "grant", amount: 0.5 }]);
  });

  it("a refund with no debit of its job in the ledger is a never-expiring grant, as before", () => {
    const entries = [entry("refund", "1.0000", 0, { type: "refund", relatedEntityId: "job-gone" })];
    expect(replay(entries)).toEqual([
      { grantId: "refund", seq: entries[0]?.seq, expiresAt: null, remaining: 10000, swept: false },
    ]);
  });

  it("property: no refunded credit outlives the grant it came from, and the buckets always hold the balance", () => {
    type Step =
      | { kind: "grant"; units: number; expires: number | null }
      | { kind: "debit"; units: number; job: number }
      | { kind: "refund"; share: number; job: number }
      | { kind: "sweep" };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constant("grant" as const),
        units: fc.integer({ min: 1, max: 50_000 }),
        expires: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
      }),
      fc.record({ kind: fc.constant("debit" as const), units: fc.integer({ min: 1, max: 60_000 }), job: fc.nat(5) }),
      fc.record({
        kind: fc.constant("refund" as const),
        share: fc.double({ min: 0, max: 1, noNaN: true }),
        job: fc.nat(5),
      }),
      fc.record({ kind: fc.constant("sweep" as const) }),
    );
    const text = (units: number) =>
      `${units < 0 ? "-" : ""}${Math.floor(Math.abs(units) / 10000)}.${String(Math.abs(units) % 10000).padStart(4, "0")}`;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const ledger: ReplayEntry[] = [];
        let n = 0;
        const post = (units: number, type: string, at: number, extra: Partial<ReplayEntry> = {}) =>
          ledger.push({
            id: `e${++n}`,
            seq: n,
            amount: text(units),
            type,
            expiresAt: null,
            createdAt: at,
            relatedEntityId: null,
            ...extra,
          });
        const balance = () => ledger.reduce((sum, e) => sum + toUnits(e.amount), 0);
        const sweep = (now: number) => {
          for (const due of dueExpiries(ledger, now))
            post(-Math.round(due.amount * 10000), "expiry", now, { relatedEntityId: due.grantId });
        };
        // Per job: charged and refunded so far (a job never refunds more than it was charged).
        const jobs = new Map<number, { charged: number; refunded: number }>();
        let foreverIn = 0;
        steps.forEach((s, i) => {
          const now = i * H;
          if (s.kind === "grant") {
            post(s.units, "purchase", now, { expiresAt: s.expires === null ? null : now + s.expires * H });
            if (s.expires === null) foreverIn += s.units;
          } else if (s.kind === "debit") {
            const units = Math.min(s.units, balance());
            if (units <= 0) return;
            post(-units, "usage", now, { relatedEntityId: `job${s.job}-${i}` });
            jobs.set(i, { charged: units, refunded: 0 });
          } else if (s.kind === "refund") {
            const open = [...jobs.entries()].filter(([, j]) => j.refunded < j.charged);
            const pick = open[s.job % Math.max(1, open.length)];
            if (!pick) return;
            const [at, job] = pick;
            const units = Math.max(1, Math.floor((job.charged - job.refunded) * s.share));
            job.refunded += units;
            const debit = ledger.find((e) => e.type === "usage" && e.relatedEntityId?.endsWith(`-${at}`));
            post(units, "refund", now, { relatedEntityId: debit?.relatedEntityId ?? null });
          } else sweep(now);
          const held = replay(ledger).reduce((sum, b) => sum + b.remaining, 0);
          expect(held).toBe(balance());
        });
        // Long after every grant lapsed and was swept, only credits of never-expiring grants may be left.
        sweep((steps.length + 50) * H);
        expect(dueExpiries(ledger, (steps.length + 60) * H)).toEqual([]);
        expect(balance()).toBeLessThanOrEqual(foreverIn);
      }),
      { numRuns: 300 },
    );
  });
});
