// `npm run import -- nsw` against the ArcGIS stand-in: both paging modes, every fault, a resume after a kill, the
// count check, Esri JSON and GeoJSON giving the same pack, and the provenance it stores.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearRootMemo, MemorySource, openPack, wholePackOfBytes } from "../../../src/packs/paged/index.ts";
import { type Area, lgaArea } from "../../../scripts/import/area.ts";
import { ImportError } from "../../../scripts/import/errors.ts";
import { importNsw, type NswImportOptions, type Provenance } from "../../../scripts/import/import-nsw.ts";
import { type ArcgisStandin, type LoggedRequest, startArcgisStandin } from "../../../standins/arcgis/server.ts";

let s: ArcgisStandin;
let dir: string;
let area: Area;
beforeAll(async () => {
  s = await startArcgisStandin();
  area = lgaArea("Hunters Hill");
});
afterAll(async () => {
  await s.stop();
});
beforeEach(() => {
  s.faults.length = 0;
  s.requests.length = 0;
  dir = mkdtempSync(join(tmpdir(), "import-test-"));
  return () => rmSync(dir, { recursive: true, force: true });
});

const FIXED = new Date("2026-12-03T01:02:03.000Z");
const waits: number[] = [];

function run(over: Partial<NswImportOptions> = {}) {
  return importNsw({
    area,
    out: join(dir, "out.pack"),
    cache: join(dir, "cache"),
    urls: s.urls,
    synthetic: true,
    version: "test",
    now: () => FIXED,
    progress: () => {},
    ...over,
    client: {
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
      ...over.client,
    },
  });
}

const pages = (layer: string): LoggedRequest[] => s.requests.filter((r) => r.layer === layer && r.kind === "page");
const urlOf = (r: LoggedRequest) => `${r.path}?${new URLSearchParams(r.params)}`;

function bushfireShares(bytes: Uint8Array): Map<string, number> {
  const lots = wholePackOfBytes(new Uint8Array(bytes), "shares").layers.get("parcels");
  const out = new Map<string, number>();
  for (let i = 0; i < (lots?.count ?? 0); i++) {
    const r = lots?.record?.(i);
    if (r) out.set(r.facts.lotId ?? String(i), r.facts.hazards.bushfire);
  }
  return out;
}

async function rootOf(file: string) {
  clearRootMemo();
  const pack = await openPack(new MemorySource(`import-${Math.random()}`, new Uint8Array(readFileSync(file))), {
    log: () => {},
  });
  return (await pack.snapshot()).root.meta;
}

describe("NSW import against the ArcGIS stand-in", () => {
  it("pages the Lot layer by offset ordered by object id, and the GDA2020 layer by ids then batches", async () => {
    const r = await run();
    expect(r.lots).toBe(111);
    const lot = pages("Lot");
    expect(lot.map((q) => q.params.resultOffset)).toEqual(["0", "40", "80"]);
    expect(lot.every((q) => q.params.orderByFields === "objectid ASC" && q.params.inSR === "4326")).toBe(true);
    const bush = s.requests.filter((q) => q.layer === "Bush Fire Prone Land" && q.kind !== "layer");
    expect(bush.map((q) => q.kind)).toEqual(["count", "ids", "page", "page", "page"]);
    expect(bush.filter((q) => q.kind === "page").map((q) => q.params.objectIds?.split(",").length)).toEqual([3, 3, 2]);
    expect(r.provenance.find((p) => p.layer === "bushfire")).toMatchObject({ paging: "ids", count: 8, kept: 8 });
    expect(r.provenance.find((p) => p.layer === "parcels")).toMatchObject({ paging: "offset", count: 111 });
  });

  it("stores each layer's provenance in the pack: source, layer, query, fetched_at, as_at, count, licence, attribution", async () => {
    const r = await run();
    const meta = await rootOf(r.out);
    const stored = JSON.parse(meta.info.provenance as string) as Provenance[];
    expect(stored.map((p) => p.layer)).toEqual([
      "parcels",
      "zoning",
      "fsr",
      "height",
      "lot_size",
      "heritage",
      "bushfire",
    ]);
    const zoning = stored.find((p) => p.layer === "zoning");
    expect(zoning).toMatchObject({
      source: s.urls.planning,
      service_layer: "Land Zoning",
      layer_id: 2,
      fetched_at: FIXED.toISOString(),
      as_at: "2026-11-14",
      count: 5,
      licence: "CC BY 4.0",
    });
    expect(zoning?.attribution).toMatch(/NSW Planning Portal/);
    expect(zoning?.query).toContain("inSR=4326");
    expect(zoning?.query).toContain("spatialRel=esriSpatialRelIntersects");
    // The old layer's own edit date, not the import's.
    expect(meta.asAt.bushfire).toBe("2025-06-30");
    expect(meta.asAt.zoning).toBe("2026-11-14");
    expect(meta.info.note).toMatch(/synthetic geometry/);
  });

  it("completes through a 429 (waiting at least its Retry-After), a 503, a truncated body and a repeated page", async () => {
    waits.length = 0;
    const clean = readFileSync((await run({ out: join(dir, "clean.pack"), cache: null })).out);
    s.requests.length = 0;
    s.faults.push(
      { kind: "429", layer: "Lot", nth: 2, retryAfter: 30 },
      { kind: "503", layer: "Land Zoning", nth: 1, times: 2 },
      { kind: "truncate", layer: "Floor Space Ratio" },
      { kind: "repeat", layer: "Lot", nth: 3 },
      { kind: "truncate", layer: "Bush Fire Prone Land", on: "ids" },
    );
    const faulty = await run({ out: join(dir, "faulty.pack"), cache: null });
    expect(s.requests.filter((r) => r.fault).map((r) => r.fault)).toEqual([
      "429",
      "repeat",
      "503",
      "503",
      "truncate",
      "truncate",
    ]);
    expect(waits).toContain(30_000);
    // The pages that came back whole, and only they, make the pack: byte for byte the clean run's.
    expect(Buffer.compare(readFileSync(faulty.out), clean)).toBe(0);
  });

  it("fails with a sentence naming the layer and the request when the service keeps failing", async () => {
    s.faults.push({ kind: "503", layer: "Height of Building", times: 100 });
    const err = await run({ client: { attempts: 3 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(
      /^Layer "Height of Building" \(planning\): the service answered 503, 3 attempts in all; request: GET http:\/\/127\.0\.0\.1:\d+\/arcgis\/rest\/services\/Planning\/EPI_Primary_Planning_Layers\/MapServer\/5\/query\?/,
    );
  });

  it("fails naming the layer when a page keeps repeating an earlier one", async () => {
    s.faults.push({ kind: "repeat", layer: "Lot", nth: 2, times: 100 });
    const err = await run().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /^Layer "Lot" \(cadastre\): the page repeats 40 features of an earlier page \(objectid 40001, /,
    );
    expect((err as Error).message).toContain("resultOffset=40");
  });

  it("refuses an import whose features disagree with the layer's count, naming the layer and the count request", async () => {
    s.faults.push({ kind: "count", layer: "Lot" });
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(
      /^Layer "Lot" \(cadastre\): the service counted 112 features but its pages gave 111; the import is refused; request: GET .*returnCountOnly=true/,
    );
  });

  it("resumes after a kill mid-layer without fetching any completed page again", async () => {
    let lotPages = 0;
    const killing: typeof fetch = (input, init) => {
      const url = String(input);
      if (url.includes("/FeatureServer/8/query") && url.includes("resultOffset=") && ++lotPages === 3) {
        return Promise.reject(new DOMException("killed", "AbortError"));
      }
      return fetch(input, init);
    };
    await expect(run({ client: { fetch: killing } })).rejects.toThrow("killed");
    expect(pages("Lot").map((q) => q.params.resultOffset)).toEqual(["0", "40"]);
    const r = await run();
    expect(r.lots).toBe(111);
    const all = s.requests.filter((q) => q.kind === "page" || q.kind === "ids").map(urlOf);
    expect(all.length).toBe(new Set(all).size);
    expect(pages("Lot").map((q) => q.params.resultOffset)).toEqual(["0", "40", "80"]);
  });

  it("gives the same pack from Esri JSON as from GeoJSON", async () => {
    const json = await run({ out: join(dir, "json.pack"), format: "json" });
    const geojson = await run({ out: join(dir, "geojson.pack"), format: "geojson" });
    expect(s.requests.some((q) => q.params.f === "geojson")).toBe(true);
    expect(Buffer.compare(readFileSync(json.out), readFileSync(geojson.out))).toBe(0);
  });

  it("reprojects a layer served only in GDA2020 map grid coordinates to the same pack", async () => {
    const plain = readFileSync((await run({ out: join(dir, "plain.pack"), cache: null })).out);
    const mga = await startArcgisStandin({ layers: { "Bush Fire Prone Land": { wkid: 7856 } } });
    try {
      const r = await run({ out: join(dir, "mga.pack"), cache: null, urls: mga.urls });
      const page = mga.requests.find((q) => q.layer === "Bush Fire Prone Land" && q.kind === "page");
      expect(page?.params.outSR).toBe("4326");
      expect(mga.requests.some((q) => q.layer === "Bush Fire Prone Land" && q.kind === "page")).toBe(true);
      // Metres of MGA zone 56 back to degrees: every lot's bushfire share as from degrees.
      const plainShares = bushfireShares(plain);
      expect([...plainShares.values()].filter((v) => v > 0).length).toBeGreaterThan(10);
      const shares = bushfireShares(readFileSync(r.out));
      expect(shares.size).toBe(plainShares.size);
      for (const [lot, share] of plainShares) expect(shares.get(lot)).toBeCloseTo(share, 3);
    } finally {
      await mga.stop();
    }
  });
});
