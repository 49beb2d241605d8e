// The Batch panel's stored results, pure parts: rows back from the server, what a ledger link opens, days kept.
import { describe, expect, it } from "vitest";
import { rowsOf, keptFor } from "../../../web/src/map/recent.ts";
import { resultHref } from "../../../web/src/account/ledger.ts";
import type { StoredBatch } from "../../../src/routes/schemas/stored-results.ts";

describe("stored results in the Batch panel", () => {
  it("turns stored rows back into table rows, in order, result or error as they were sent", () => {
    const result = { index: 0, line: 2, input: { site: "a" }, score: 71 };
    const error = { index: 1, line: 3, input: { site: "b" }, detail: "No lot at this point" };
    const rows = rowsOf({
      rows: [
        { event: "site_result", data: result },
        { event: "site_error", data: error },
      ],
    } as unknown as Pick<StoredBatch, "rows">);
    expect(rows).toEqual([
      { kind: "result", ...result },
      { kind: "error", ...error },
    ]);
  });

  it("a ledger link opens the batch or report on the map by its id", () => {
    expect(resultHref({ kind: "batch", id: "3f1c" })).toBe("/?batch=3f1c");
    expect(resultHref({ kind: "report", id: "a b" })).toBe("/?report=a%20b");
  });

  it("says how many days are left, rounding up, never below zero", () => {
    const now = Date.parse("2026-11-27T00:00:00Z");
    expect(keptFor("2026-12-27T00:00:00Z", now)).toBe("kept 30 more days");
    expect(keptFor("2026-11-27T12:00:00Z", now)).toBe("kept 1 more day");
    expect(keptFor("2026-11-26T00:00:00Z", now)).toBe("kept 0 more days");
  });
});
