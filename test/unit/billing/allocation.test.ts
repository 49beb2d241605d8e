// FIFO-by-expiry replay: pure, exact to the ten-thousandth.
import { describe, expect, it } from "vitest";
import { dueExpiries, replay, toUnits, type ReplayEntry } from "../../../src/billing/allocation.ts";

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
});
