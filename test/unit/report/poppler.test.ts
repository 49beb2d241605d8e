// The report read by real PDF tools (poppler-utils): page count, extractable text, every page renders.
// Skipped where poppler is not installed (`apt-get install poppler-utils`).
import { fixedScope } from "../../../src/packs/scope.ts";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleRequest } from "../../../scripts/report/example.ts";
import { generateReport } from "../../../src/report/generate.ts";
import { digestOf } from "../../../src/lib/digest.ts";
import { offlineWork } from "../../../src/credits/charged-work.ts";

const hasPoppler = (() => {
  try {
    execFileSync("pdfinfo", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasPoppler)("the report in poppler", () => {
  const dir = mkdtempSync(join(tmpdir(), "report-"));
  const file = join(dir, "report.pdf");
  let pages = 0;
  let lots: { lot_id: string; score: number }[] = [];

  beforeAll(async () => {
    const { packs, request } = await exampleRequest();
    lots = request.scores.flatMap((s) => {
      const r = s as { parcel?: { lot_id: string }; score?: number };
      return r.parcel && typeof r.score === "number" ? [{ lot_id: r.parcel.lot_id, score: r.score }] : [];
    });
    const work = offlineWork("00000000-0000-4000-8000-000000000002", 0.5);
    for await (const e of generateReport({
      request,
      packs: fixedScope(packs),
      organisation: "Demo Team",
      date: "2026-07-01",
      digest: await digestOf(request),
      work,
    })) {
      if (e.event !== "report_complete") continue;
      const d = e.data as { pages: number; pdf_base64: string };
      pages = d.pages;
      writeFileSync(file, Buffer.from(d.pdf_base64, "base64"));
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("pdfinfo counts the pages report_complete announced, on A4", () => {
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    expect(info).toMatch(new RegExp(`^Pages:\\s+${pages}$`, "m"));
    expect(info).toContain("595.28 x 841.89 pts (A4)");
  });

  it("pdftotext finds the location and every lot id beside its score", () => {
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Newtown, NSW");
    expect(lots).toHaveLength(10);
    // A summary row: rank, lot, site, area, zone, score, rating, on one line.
    const rows = text.split("\n").filter((l) => /\s(High|Medium|Low)\s*$/.test(l));
    for (const { lot_id, score } of lots) {
      const row = rows.find((l) => l.includes(` ${lot_id} `));
      expect(row, lot_id).toBeDefined();
      expect(row?.match(/\s(\d+)\s+(High|Medium|Low)\s*$/)?.[1]).toBe(String(score));
    }
  });

  it("pdftoppm renders every page", () => {
    execFileSync("pdftoppm", ["-png", "-r", "30", file, join(dir, "page")]);
    const pngs = readdirSync(dir).filter((f) => f.endsWith(".png"));
    expect(pngs).toHaveLength(pages);
    for (const p of pngs) expect(statSync(join(dir, p)).size).toBeGreaterThan(1000);
  });
});
