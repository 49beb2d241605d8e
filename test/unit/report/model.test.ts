// Small pure pieces of the report: its date in Sydney, file name, long date, the request digest.
import { describe, expect, it } from "vitest";
import { digestOf } from "../../../src/lib/digest.ts";
import { reportDate } from "../../../src/report/date.ts";
import { longDate, reportFilename } from "../../../src/report/model.ts";
import { niceLength } from "../../../src/report/pdf/map.ts";
import { viewFor } from "../../../src/report/map-data.ts";

describe("report date", () => {
  it("is the calendar day in Sydney, across DST", () => {
    expect(reportDate(new Date("2026-07-01T15:00:00Z"))).toBe("2026-07-02"); // AEST, UTC+10
    expect(reportDate(new Date("2026-07-01T13:59:00Z"))).toBe("2026-07-01");
    expect(reportDate(new Date("2026-01-10T13:30:00Z"))).toBe("2026-01-11"); // AEDT, UTC+11
    expect(longDate("2026-07-02")).toBe("2 July 2026");
  });
});

describe("file name", () => {
  it("is a plain slug of the location and the date, ending in .pdf", () => {
    expect(reportFilename("Newtown, NSW", "2026-07-02")).toBe("feasibility-report-newtown-nsw-2026-07-02.pdf");
    expect(reportFilename("Zoë's Café / 新城 🏠", "2026-07-02")).toBe("feasibility-report-zoe-s-cafe-2026-07-02.pdf");
    expect(reportFilename(null, "2026-07-02")).toBe("feasibility-report-sites-2026-07-02.pdf");
    expect(reportFilename("新城", "2026-07-02")).toBe("feasibility-report-sites-2026-07-02.pdf");
    expect(reportFilename("a ".repeat(200), "2026-07-02").length).toBeLessThan(100);
  });
});

describe("digest", () => {
  it("is the SHA-256 of the JSON, stable for equal values", async () => {
    expect(await digestOf({ a: 1 })).toBe("015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
    expect(await digestOf({ a: 1 })).not.toBe(await digestOf({ a: 2 }));
  });
});

describe("maps to scale", () => {
  it("scale bars use 1-2-5 lengths no longer than asked", () => {
    expect([7, 20, 26, 48, 99, 120, 460].map(niceLength)).toEqual([5, 20, 20, 20, 50, 100, 200]);
  });

  it("the view keeps the lot in a fixed share, at least 90 m wide, with the map's aspect", () => {
    const small = viewFor({ bbox: [151.17, -33.9, 151.1701, -33.8999] }, 1.25);
    expect(small.widthM).toBe(90);
    expect(small.widthM / small.heightM).toBeCloseTo(1.25, 10);
    const big = viewFor({ bbox: [151.17, -33.9, 151.18, -33.89] }, 1);
    expect(big.widthM).toBeGreaterThan(((151.18 - 151.17) * big.kx) / 0.5);
    expect((big.east - big.west) * big.kx).toBeCloseTo(big.widthM, 6);
  });
});
