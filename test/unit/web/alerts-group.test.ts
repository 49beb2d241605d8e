// One lot changed under two alerts is listed once, naming both; different changes stay apart, newest first.
import { describe, expect, it } from "vitest";
import type { Notification } from "../../../src/routes/schemas/alerts.ts";
import { groupByChange } from "../../../web/src/alerts/group.ts";

const note = (id: string, alert: string, key: string, read = false, pack = "greater-sydney"): Notification => ({
  id,
  alert_id: alert,
  alert_type: "zoning_change",
  change: { key, pack_id: pack, lot_id: "6//DP1", field: "zone" },
  read,
  created_at: "2026-12-01T00:00:00.000Z",
});

describe("notifications grouped by change", () => {
  it("lists a change heard under two alerts once, with both, read only when both are", () => {
    const groups = groupByChange([
      note("n1", "site-alert", "1->2:zoning_change:6//DP1:zone"),
      note("n2", "epping-alert", "1->2:zoning_change:6//DP1:zone", true),
      note("n3", "epping-alert", "1->2:zoning_change:7//DP1:zone"),
    ]);
    expect(groups.map((g) => [g.first.id, g.members.map((m) => m.alert_id), g.read])).toEqual([
      ["n1", ["site-alert", "epping-alert"], false],
      ["n3", ["epping-alert"], false],
    ]);
  });

  it("keeps apart the same key in two packs, and notifications without a key", () => {
    const groups = groupByChange([
      note("n1", "a", "1->2:zoning_change:6//DP1:zone", false, "greater-sydney"),
      note("n2", "b", "1->2:zoning_change:6//DP1:zone", false, "my-lots"),
      { ...note("n3", "a", ""), change: null },
      { ...note("n4", "b", ""), change: null },
    ]);
    expect(groups.map((g) => g.members.length)).toEqual([1, 1, 1, 1]);
  });
});
