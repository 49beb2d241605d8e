// The report end to end in Node on the demo packs: events, the PDF's pages, text, metadata and reproducibility.
import { readFileSync } from "node:fs";
import { fixedScope } from "../../../src/packs/scope.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { exampleRequest } from "../../../scripts/report/example.ts";
import { generateReport, ReportFailure, type ReportJob } from "../../../src/report/generate.ts";
import type { ChargedWork } from "../../../src/credits/charged-work.ts";
import type { Job } from "../../../src/credits/jobs.ts";
import { ReportGenerateRequestSchema, type ReportRequest } from "../../../src/report/schema.ts";
import { digestOf } from "../../../src/lib/digest.ts";
import { PAGE_H, PAGE_W } from "../../../src/report/pdf/style.ts";
import { PRODUCER } from "../../../src/report/pdf/document.ts";
import { pageOperators, pdfPageTexts } from "../../support/pdf-text.ts";
import type { SseEvent } from "../../../src/http/sse.ts";
import { defaultsDocument } from "../../../src/value/store.ts";

type Example = Awaited<ReturnType<typeof exampleRequest>>;
let example: Example;
beforeAll(async () => {
  example = await exampleRequest();
});

// The ledger is exercised by the worker tests; here the work records the units it was settled with.
function recordingWork(): ChargedWork & { outcomes: number[]; ledgerDown: boolean } {
  const outcomes: number[] = [];
  const work = {
    id: "11111111-2222-4333-8444-555555555555",
    units: 1,
    charged: 0.5,
    balance: 9.5,
    replayed: false,
    payerName: "Acme Developments",
    outcomes,
    ledgerDown: false,
    async settle(delivered: number) {
      outcomes.push(delivered);
      if (work.ledgerDown) return { ok: false as const, error: new Error("ledger unreachable") };
      const refunded = delivered === 1 ? 0 : 0.5;
      return {
        ok: true as const,
        settlement: { job: {} as Job, refunded, refund: null, balance: 9.5, alreadySettled: false },
      };
    },
  };
  return work;
}

async function job(
  request: ReportRequest,
  date = "2026-07-01",
): Promise<ReportJob & { work: ReturnType<typeof recordingWork> }> {
  return {
    request,
    packs: fixedScope(example.packs),
    organisation: "Demo Team",
    date,
    digest: await digestOf(request),
    work: recordingWork(),
  };
}

async function collect(gen: AsyncGenerator<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

interface Complete {
  filename: string;
  pages: number;
  bytes: number;
  pdf_base64: string;
  unresolved: number[];
  detailed: number;
}

async function render(request: ReportRequest, date?: string) {
  const j = await job(request, date);
  const events = await collect(generateReport(j));
  const done = events.at(-1)?.data as Complete;
  const pdf = new Uint8Array(Buffer.from(done.pdf_base64, "base64"));
  return { events, done, pdf, work: j.work };
}

describe("the stream", () => {
  it("progress through resolving, ranking, drawing and assembling, then report_complete; settled as delivered", async () => {
    const { events, done, pdf, work } = await render(example.request);
    const stages = [
      ...new Set(events.filter((e) => e.event === "progress").map((e) => (e.data as { stage: string }).stage)),
    ];
    expect(stages).toEqual(["resolving", "ranking", "drawing", "assembling"]);
    expect(events.at(-1)?.event).toBe("report_complete");
    const percents = events.slice(0, -1).map((e) => (e.data as { percent: number }).percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(done.bytes).toBe(pdf.length);
    expect(done.filename).toBe("feasibility-report-newtown-nsw-2026-07-01.pdf");
    expect(work.outcomes).toEqual([1]);
  });

  it("names an unresolved site in its own progress event", async () => {
    const { events, done } = await render(example.request);
    const last = example.request.parcel_geojsons.length - 1;
    const ev = events.find((e) => (e.data as { site?: { index: number } }).site?.index === last);
    expect(ev?.data).toMatchObject({
      stage: "resolving",
      message: expect.stringContaining("unresolved site"),
      site: { status: "unresolved" },
    });
    expect(done.unresolved).toEqual([last]);
  });

  it("the first event comes before any site is resolved or the PDF library is loaded", async () => {
    const j = await job(example.request);
    let loaded = false;
    const gen = generateReport(j, async () => {
      loaded = true;
      return import("../../../src/report/pdf/render.ts");
    });
    const first = await gen.next();
    expect(first.value).toMatchObject({ event: "progress", data: { stage: "resolving", percent: 0 } });
    expect(loaded).toBe(false);
    await gen.return(undefined);
  });

  it("a failure after the charge is refunded once and surfaces as a ReportFailure saying so", async () => {
    const j = await job(example.request);
    const gen = generateReport(j, async () => {
      throw new Error("renderer missing");
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of gen) seen.push(e.event);
      })(),
    ).rejects.toThrow("the 0.5 credits charged were refunded");
    expect(seen.every((e) => e === "progress")).toBe(true);
    expect(j.work.outcomes).toEqual([0]);
  });

  it("the failure's detail says whether the refund was posted", async () => {
    const j = await job(example.request);
    j.work.ledgerDown = true;
    const failing = generateReport(j, async () => Promise.reject(new Error("renderer missing")));
    const err = await (async () => {
      for await (const _ of failing);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReportFailure);
    expect((err as ReportFailure).detail).toContain("refund of report 11111111-2222-4333-8444-555555555555 is pending");
    expect(j.work.outcomes).toEqual([0]);
  });

  it("a consumer that stops early leaves the charge refunded", async () => {
    const j = await job(example.request);
    const gen = generateReport(j);
    await gen.next();
    await gen.return(undefined);
    expect(j.work.outcomes).toEqual([0]);
  });
});

describe("the PDF", () => {
  let pdf: Uint8Array;
  let done: Complete;
  let texts: string[];
  beforeAll(async () => {
    ({ pdf, done } = await render(example.request));
    texts = await pdfPageTexts(pdf);
  });

  it("has the pages report_complete says: cover, summary, one per detailed site, method", async () => {
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(done.pages);
    expect(done.detailed).toBe(5);
    expect(done.pages).toBe(2 + 5 + 1);
    for (const p of doc.getPages()) expect(p.getSize()).toEqual({ width: PAGE_W, height: PAGE_H });
  });

  it("carries fixed metadata: title with the location, producer, and the report date as creation and modification date", async () => {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getTitle()).toBe("Site Feasibility Report: Newtown, NSW");
    expect(doc.getProducer()).toBe(PRODUCER);
    expect(doc.getCreationDate()?.toISOString()).toBe("2026-07-01T00:00:00.000Z");
    expect(doc.getModificationDate()?.toISOString()).toBe("2026-07-01T00:00:00.000Z");
  });

  it("shows the location, every lot id and score, the unresolved site, the packs and the demo-data notice as text", async () => {
    const all = texts.join("\n");
    expect(texts[0]).toContain("Newtown, NSW");
    const scores = example.request.scores.filter((s) => (s as { parcel?: unknown }).parcel) as {
      parcel: { lot_id: string };
    }[];
    expect(scores.length).toBe(10);
    for (const s of scores) expect(all).toContain(s.parcel.lot_id);
    expect(texts[1]).toContain("Unresolved sites");
    expect(texts[1]).toContain("No parcel at -33.8985, 151.1789");
    expect(texts[0]).toContain("sydney-demo 2.0.0");
    expect(texts[0]).toContain("Demo data");
    expect(all).toContain("CC BY 4.0");
    const methodology = texts.at(-1) ?? "";
    expect(methodology).toContain("Potential points: 0 with no uplift");
    expect(methodology).toContain("Rating: high from 70");
    for (const [i, t] of texts.entries()) expect(t).toContain(`Page ${i + 1} of ${texts.length}`);
  });

  it("a detailed page shows the site's score, rating, components and reasons", async () => {
    const page = texts[2] ?? "";
    expect(page).toMatch(/Lot \d+\/\/DP\d+/);
    // The example's ten Newtown lots are 123-221 m² terraces and strip shops: none holds a dwelling more than stands
    // (feasibility v3 holds each form to its height and envelope, and a strip shop's floor above to its FSR).
    expect(page).toContain("LOW");
    for (const label of [
      "Development potential",
      "Site constraints",
      "Access to transport",
      "Lot geometry",
      "Planning controls",
      "Why this score",
    ])
      expect(page).toContain(label);
  });

  it("draws every string inside the page", async () => {
    const doc = await PDFDocument.load(pdf);
    for (const page of doc.getPages()) {
      for (const m of pageOperators(page).matchAll(/1 0 0 1 (-?[\d.]+) (-?[\d.]+) Tm/g)) {
        const [x, y] = [Number(m[1]), Number(m[2])];
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThan(PAGE_W);
        expect(y).toBeGreaterThan(20);
        expect(y).toBeLessThan(PAGE_H);
      }
    }
  });

  it("is reproducible: the same input gives the same bytes; another date gives other bytes", async () => {
    const again = await render(example.request);
    expect(Buffer.from(again.pdf).equals(Buffer.from(pdf))).toBe(true);
    const later = await render(example.request, "2026-07-02");
    expect(Buffer.from(later.pdf).equals(Buffer.from(pdf))).toBe(false);
  });
});

describe("odd input", () => {
  it("emoji, CJK, control characters and very long strings are drawn without failing", async () => {
    const long = "Very long site name ".repeat(500);
    const scores = example.request.scores.map((s, i) =>
      i === 0 ? { ...s, input: { site_name: `🏗️ 新城 ${long}\n\t` } } : s,
    );
    const request = ReportGenerateRequestSchema.parse({
      ...example.request,
      scores,
      location: `悉尼 Newtown 🏙️ ${"x".repeat(280)}`,
      top_n: 50,
    });
    const { done, pdf } = await render(request);
    const texts = await pdfPageTexts(pdf);
    expect(texts[0]).toContain("?? Newtown ?");
    expect(texts.join("\n")).toContain("Very long site name");
    expect(done.pages).toBe(texts.length);
    expect(done.detailed).toBe(10);
  });

  it("a report where nothing resolves still renders, saying so", async () => {
    const request = ReportGenerateRequestSchema.parse({
      scores: [],
      parcel_geojsons: [{ type: "Point", coordinates: [144.963, -37.814] }],
    });
    const { done, pdf } = await render(request);
    expect(done).toMatchObject({ detailed: 0, unresolved: [0] });
    const texts = await pdfPageTexts(pdf);
    expect(texts[0]).toContain("No site could be assessed");
    expect(texts[1]).toContain("outside every data pack");
  });

  it("100 sites with long reasons flow onto further summary pages with the table header repeated", async () => {
    const parcel_geojsons = Array.from({ length: 100 }, (_, i) => example.request.parcel_geojsons[i % 10]);
    const request = ReportGenerateRequestSchema.parse({ scores: [], parcel_geojsons, top_n: 1 });
    const { done, pdf } = await render(request);
    const texts = await pdfPageTexts(pdf);
    expect(texts[2]).toContain("Ranked sites (continued)");
    expect(texts[2]).toContain("Rank");
    expect(done.pages).toBe(texts.length);
  });
});

describe("what each detailed site is worth (issue 54)", () => {
  it("a paid report prints the residual's waterfall, the sensitivity grid and the assumptions version on each detailed site's page", async () => {
    const j = { ...(await job(example.request)), assumptions: { ...defaultsDocument(), version: 7 } };
    const events = await collect(generateReport(j));
    const done = events.at(-1)?.data as Complete;
    const texts = await pdfPageTexts(new Uint8Array(Buffer.from(done.pdf_base64, "base64")));
    const worth = texts.filter((t) => t.includes("What the site is worth"));
    expect(worth).toHaveLength(done.detailed);
    for (const t of worth) {
      expect(t).toContain("Gross realisation");
      expect(t).toContain("Residual land value");
      expect(t).toContain("Sensitivity of the residual");
      expect(t).toContain("Assumptions (version 7; rlv-v1)");
    }
  });

  it("an unpaid example report (no assumptions) prints no value", async () => {
    const { pdf } = await render(example.request);
    expect((await pdfPageTexts(pdf)).some((t) => t.includes("What the site is worth"))).toBe(false);
  });
});

describe("an imported pack's sources (issue 56)", () => {
  it("the report's sources name each imported layer with its as at date", async () => {
    const b64 = readFileSync("test/fixtures/nsw/imported-hunters-hill.pack.b64", "utf8").trim();
    const imported = readPackBytes(Buffer.from(b64, "base64"), "nsw-hunters-hill");
    const lot = String(imported.layers.get("parcels")?.props(0).lot_id);
    const request = ReportGenerateRequestSchema.parse({ scores: [{ lot_id: lot }], parcel_geojsons: [] });
    const j = { ...(await job(request)), packs: fixedScope([imported, ...example.packs]) };
    const events = await collect(generateReport(j));
    const done = events.at(-1)?.data as Complete;
    const text = (await pdfPageTexts(new Uint8Array(Buffer.from(done.pdf_base64, "base64")))).join("\n");
    expect(text).toContain("zoning: Land Zoning, as at 14 November 2026");
    expect(text).toContain("bushfire: Bush Fire Prone Land, as at 30 June 2025");
    expect(text).toContain("parcels: Lot, as at 28 November 2026");
  });
});
