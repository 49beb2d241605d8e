// Stripe's bracketed form encoding and monthly billing periods, as the local processor reads them.
import { describe, expect, it } from "vitest";
import { canonical, decodeParams } from "./form.ts";
import { addMonth } from "./objects.ts";

const unix = (iso: string): number => Date.parse(iso) / 1000;
const iso = (s: number): string => new Date(s * 1000).toISOString();

describe("decodeParams", () => {
  it("nests bracketed keys into objects and indexed keys into arrays", () => {
    const p = decodeParams(
      "mode=subscription&line_items[0][price]=price_a&line_items[0][quantity]=1&line_items[1][price]=price_b&metadata[org_id]=o%201&expand[]=x&expand[]=y",
    );
    expect(p).toEqual({
      mode: "subscription",
      line_items: [{ price: "price_a", quantity: "1" }, { price: "price_b" }],
      metadata: { org_id: "o 1" },
      expand: ["x", "y"],
    });
  });

  it("reads percent-encoded brackets the same", () => {
    expect(decodeParams("metadata%5Borg_id%5D=o1")).toEqual({ metadata: { org_id: "o1" } });
  });

  it("canonical text ignores key order", () => {
    expect(canonical(decodeParams("a=1&b[c]=2&b[d]=3"))).toBe(canonical(decodeParams("b[d]=3&a=1&b[c]=2")));
    expect(canonical(decodeParams("a=1"))).not.toBe(canonical(decodeParams("a=2")));
  });
});

describe("addMonth", () => {
  it("keeps the day of month and time", () => {
    expect(iso(addMonth(unix("2026-03-15T10:20:30Z")))).toBe("2026-04-15T10:20:30.000Z");
    expect(iso(addMonth(unix("2026-12-05T00:00:00Z")))).toBe("2027-01-05T00:00:00.000Z");
  });

  it("clamps to the last day of a shorter month", () => {
    expect(iso(addMonth(unix("2026-01-31T08:00:00Z")))).toBe("2026-02-28T08:00:00.000Z");
    expect(iso(addMonth(unix("2028-01-31T08:00:00Z")))).toBe("2028-02-29T08:00:00.000Z");
    expect(iso(addMonth(unix("2026-08-31T08:00:00Z")))).toBe("2026-09-30T08:00:00.000Z");
  });
});
