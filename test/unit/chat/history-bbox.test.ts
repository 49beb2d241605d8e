import { describe, expect, it } from "vitest";
import type { ModelMessage } from "ai";
import { trimHistory } from "../../../src/chat/history.ts";
import { BBoxInputSchema } from "../../../src/routes/schemas/geometry.ts";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const assistant = (text: string): ModelMessage => ({ role: "assistant", content: text });
const call = (id: string): ModelMessage => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: id, toolName: "find_parcels", input: {} }],
});
const result = (id: string): ModelMessage => ({
  role: "tool",
  content: [
    { type: "tool-result", toolCallId: id, toolName: "find_parcels", output: { type: "json", value: { matched: 1 } } },
  ],
});

describe("trimHistory", () => {
  const turns = Array.from({ length: 10 }, (_, i) => [
    user(`q${i}`),
    call(`c${i}`),
    result(`c${i}`),
    assistant(`a${i}`),
  ]).flat();

  it("keeps everything within budget", () => {
    expect(trimHistory(turns)).toEqual(turns);
  });

  it("drops the oldest whole turns to the message budget, starting at a question", () => {
    const kept = trimHistory(turns, 10);
    expect(kept[0]).toEqual(user("q8"));
    expect(kept).toEqual(turns.slice(-8));
  });

  it("drops to the size budget without keeping a tool result whose call is gone", () => {
    const perTurn = JSON.stringify(turns.slice(0, 4)).length;
    const kept = trimHistory(turns, 100, Math.floor(perTurn * 2.5));
    expect(kept[0]?.role).toBe("user");
    expect(kept.length).toBe(8);
  });

  it("drops a single turn larger than the budget", () => {
    expect(trimHistory([user("x".repeat(100)), assistant("y")], 40, 50)).toEqual([]);
  });
});

describe("BBoxInputSchema", () => {
  const issues = (v: unknown) => {
    const r = BBoxInputSchema.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => ({ path: i.path, message: i.message }));
  };

  it("accepts [west, south, east, north]", () => {
    expect(issues([151.07, -33.78, 151.09, -33.76])).toEqual([]);
  });

  it("refuses boxes that are inverted, out of range or not four numbers", () => {
    expect(issues([151.09, -33.78, 151.07, -33.76])).toEqual([
      { path: [], message: "Value error, bbox must be [west, south, east, north] with west < east" },
    ]);
    expect(issues([151.07, -33.76, 151.09, -33.78])).toEqual([
      { path: [], message: "Value error, bbox must be [west, south, east, north] with south < north" },
    ]);
    expect(issues([151, -95, 152, -33])).toEqual([
      { path: [1], message: "Value error, south must be between -90 and 90" },
    ]);
    expect(issues([-200, -34, 152, -33])).toEqual([
      { path: [0], message: "Value error, west must be between -180 and 180" },
    ]);
    expect(issues([1, 2, 3])[0]?.path).toEqual([]);
    expect(issues([1, 2, 3, "4"])[0]?.path).toEqual([3]);
  });
});
