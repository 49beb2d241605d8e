import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildLayers } from "../../../../scripts/pack/cli.ts";
import { buildLotsPackStreamed, type StreamBuildSpec } from "../../../../scripts/pack/stream/build.ts";
import { decodePack } from "../../../../src/packs/v1/decode.ts";
import { encodePack } from "../../../../src/packs/v1/encode.ts";
import { convertToLotsPack } from "../../../../src/assess/lots-pack.ts";
import { decodeRoot } from "../../../../src/packs/paged/root.ts";
import { HEADER_BYTES, readHeader } from "../../../../src/packs/paged/schema.ts";
import { recordsOf, writeInputs } from "./fixture.ts";

const IN = writeInputs(2500);
afterAll(() => rmSync(IN.dir, { recursive: true, force: true }));

const spec = (out: string, more: Partial<StreamBuildSpec> = {}): StreamBuildSpec => ({
  out: join(IN.dir, out),
  id: "stream-test",
  title: "Stream test",
  version: "7",
  synthetic: ["parcels", "zoning"],
  parcels: IN.parcels,
  files: IN.overlays,
  asAt: { cadastre: "2025-10-01" },
  // Small pages, so the lots span several and the lot-id index names more than one.
  pageBytes: 16 * 1024,
  progress: { show: false },
  ...more,
});

const read = (file: string) => new Uint8Array(readFileSync(file));

// The same data built whole in memory: a v1 pack of the cadastre and every overlay (as the streamed build holds its
// overlays, Float64 and in index order), converted as `convert --lots` converts one.
const v1 = decodePack(
  encodePack({
    ...buildLayers({
      id: "stream-test",
      title: "Stream test",
      version: "7",
      synthetic: ["parcels", "zoning"],
      files: { ...IN.overlays, parcels: IN.parcels },
    }),
    order: "index",
  }),
);
const WHOLE = await convertToLotsPack(v1, { asAt: { cadastre: "2025-10-01" }, pageBytes: 16 * 1024 });
const one = await buildLotsPackStreamed(spec("one-run.pack"));
const STREAMED = read(one.out);

describe("streamed v2 build", () => {
  it("gives the bytes the in-memory conversion gives: same order, pages, facts and lot-id index", () => {
    expect(one.lots).toBe(IN.lots);
    expect(one.runs).toBe(1);
    const a = readHeader(WHOLE, "whole");
    const b = readHeader(STREAMED, "streamed");
    expect(b.pageCount).toBe(a.pageCount);
    expect(b.pageCount).toBeGreaterThan(3);
    expect(b.indexPageCount).toBe(a.indexPageCount);
    expect(b.featureCount).toBe(IN.lots);
    expect(b.objectLength).toBe(STREAMED.length);
    // Pages and index bytes are identical; the roots differ only in `info` (convert adds converted_from).
    expect(Buffer.from(STREAMED.subarray(b.dataStart)).equals(Buffer.from(WHOLE.subarray(a.dataStart)))).toBe(true);
    const ra = decodeRoot(WHOLE.subarray(HEADER_BYTES, HEADER_BYTES + a.rootLength), a, "whole");
    const rb = decodeRoot(STREAMED.subarray(HEADER_BYTES, HEADER_BYTES + b.rootLength), b, "streamed");
    expect({ ...rb.meta, info: {} }).toEqual({ ...ra.meta, info: {} });
    expect(rb.meta.info).toEqual({ title: "Stream test", attribution: "", licence: "" });
    expect(rb.meta.lotIdColumn).toBe("lot_id");
    expect([...rb.pageCrcs]).toEqual([...ra.pageCrcs]);
    expect([...rb.indexCrcs]).toEqual([...ra.indexCrcs]);
    expect([...rb.pageMax[0]!]).toEqual([...ra.pageMax[0]!]);
    expect([...rb.zoneBits]).toEqual([...ra.zoneBits]);
  });

  it("reads back every lot with the same facts as the in-memory conversion", async () => {
    const whole = await recordsOf(WHOLE);
    const streamed = await recordsOf(STREAMED);
    expect(streamed.size).toBe(IN.lots);
    expect([...streamed.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [id, r] of streamed) expect(r, id).toEqual(whole.get(id));
    // The facts are real: overlays were cut (zones, controls, suburbs, stations), and the synthetic flags kept.
    const all = [...streamed.values()];
    expect(all.every((r) => r.facts.demoData)).toBe(true);
    expect(new Set(all.map((r) => r.facts.zones[0]?.code)).size).toBeGreaterThan(3);
    expect(all.some((r) => r.facts.zones.length > 1)).toBe(true);
    expect(all.every((r) => r.place.suburb !== null && r.facts.nearestStop !== null)).toBe(true);
    expect(all.some((r) => r.facts.hazards.flood > 0)).toBe(true);
  });

  it("bounds memory by run size: a small run size sorts several runs and merges them in passes, to the same bytes", async () => {
    const many = await buildLotsPackStreamed(
      spec("many-runs.pack", { runBytes: 64 * 1024, fanIn: 3, readBufferBytes: 4096 }),
    );
    expect(many.runs).toBeGreaterThan(6);
    expect(Buffer.from(read(many.out)).equals(Buffer.from(STREAMED))).toBe(true);
  });

  it("spills the lot-id index too: several index runs, the same bytes", async () => {
    // 16 bytes a pair: 4 KiB chunks hold 256 pairs.
    const r = await buildLotsPackStreamed(spec("index-runs.pack", { runBytes: 4096, fanIn: 4, readBufferBytes: 1024 }));
    expect(r.indexRuns).toBeGreaterThan(4);
    expect(Buffer.from(read(r.out)).equals(Buffer.from(STREAMED))).toBe(true);
  });
});
