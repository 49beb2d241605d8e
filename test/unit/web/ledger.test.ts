// The account page's reading of the ledger: per-day usage by action net of refunds, credits added, entry names.
import { describe, expect, it } from "vitest";
import type { Entry } from "../../../web/src/account/ledger.ts";
import { kindOf, perDay, whatFor } from "../../../web/src/account/ledger.ts";

const today = new Date(2026, 10, 25, 15, 0);
function entry(
  type: Entry["type"],
  amount: number,
  action_type: Entry["action_type"],
  at: Date,
  description: string | null = null,
): Entry {
  return { amount, type, description, action_type, created_at: at.toISOString() };
}
const at = (daysAgo: number, hour = 10) => new Date(2026, 10, 25 - daysAgo, hour);

describe("perDay", () => {
  it("sums usage per local day by action, less refunds, and credits added apart from usage", () => {
    const days = perDay(
      [
        entry("usage", -1, "batch_score", at(0)),
        entry("refund", 0.3, "batch_score", at(0, 11)),
        entry("usage", -0.5, "report", at(0)),
        entry("usage", -0.05, "chat", at(1)),
        entry("usage", -0.05, "chat", at(1, 12)),
        entry("subscription_grant", 100, null, at(1)),
        entry("adjustment", 100, null, at(2)),
      ],
      3,
      today,
    );
    expect(days.map((d) => d.day)).toEqual(["2026-11-23", "2026-11-24", "2026-11-25"]);
    expect(days[2]).toEqual({ day: "2026-11-25", used: { batch: 0.7, report: 0.5, chat: 0 }, added: 0 });
    expect(days[1]).toEqual({ day: "2026-11-24", used: { batch: 0, report: 0, chat: 0.1 }, added: 100 });
    expect(days[0]?.added).toBe(100);
  });

  it("leaves out entries older than the window and never shows a day's use below zero", () => {
    const days = perDay([entry("usage", -5, "chat", at(9)), entry("refund", 2, "report", at(0))], 3, today);
    expect(days.every((d) => d.used.chat === 0 && d.added === 0)).toBe(true);
    expect(days[2]?.used.report).toBe(0);
  });
});

describe("entries in words", () => {
  it("says what an entry paid for, with its description when it adds something", () => {
    expect(whatFor(entry("usage", -0.05, "chat", today, "Chat question"))).toBe("Used: chat (Chat question)");
    expect(whatFor(entry("refund", 0.2, "batch_score", today))).toBe("Refund: batch");
    expect(whatFor(entry("subscription_grant", 100, null, today, "Subscription credits"))).toBe("Subscription credits");
    // A single site's score is named as such, not as batch scoring (both are the batch_score action).
    expect(whatFor(entry("usage", -0.1, "batch_score", today, "Scoring of 12//DP1001"))).toBe(
      "Used: site score (Scoring of 12//DP1001)",
    );
    expect(whatFor(entry("usage", -1, "batch_score", today, "Batch scoring of 10 sites"))).toBe(
      "Used: batch (Batch scoring of 10 sites)",
    );
    expect(whatFor(entry("usage", -0.5, "report", today))).toBe("Used: report");
  });

  it("sorts entries into used, refunded and added", () => {
    expect(kindOf(entry("usage", -1, "report", today))).toBe("spent");
    expect(kindOf(entry("refund", 1, "report", today))).toBe("refund");
    expect(kindOf(entry("purchase", 50, null, today))).toBe("added");
    expect(kindOf(entry("expiry", -5, null, today))).toBe("spent");
  });
});
