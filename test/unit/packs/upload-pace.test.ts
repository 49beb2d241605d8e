// Issue 47 (finding 3): reading a 100,000-lot upload yields to the event loop between slices and batches, so other
// requests interleave. Bounded by the work counted between yields (features checked, bytes parsed), not by time.
import { describe, expect, it } from "vitest";
import { readGeoJson } from "../../../src/packs/upload/read-geojson.ts";
import { UPLOAD_SLICE_BYTES, UPLOAD_YIELD_FEATURES, UploadPacer } from "../../../src/packs/upload/pace.ts";
import { UploadLayerBuilder } from "../../../src/packs/upload/build-layer.ts";
import { squareLot } from "../../support/lot-feature.ts";
import { timerChain } from "../../support/timer-chain.ts";

const LOTS = 100_000;

function fileOf(count: number): Uint8Array {
  const d = 0.00018;
  const features = Array.from({ length: count }, (_, i) =>
    squareLot(
      { lot_id: `${i + 1}//DP${700000 + i}` },
      150.90009 + (i % 300) * 0.0002,
      -33.94991 + Math.floor(i / 300) * 0.0002,
      d / 2,
    ),
  );
  return new TextEncoder().encode(JSON.stringify({ type: "FeatureCollection", features }));
}

// The whole file as one chunk: the worst case, a body read at once.
const oneChunk = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });

describe("reading an upload yields", () => {
  it("100,000 lots: at most one batch of features and one slice between yields, and timers run meanwhile", async () => {
    const file = fileOf(LOTS);
    const builder = new UploadLayerBuilder("parcels", null);
    const pacer = new UploadPacer();
    // Another request's work, as a chain of macrotasks: it runs only when the read yields.
    const stop = timerChain();
    await readGeoJson(oneChunk(file), builder, pacer);
    const ticks = stop();
    expect(builder.count).toBe(LOTS);
    expect(pacer.features).toBe(LOTS);
    expect(pacer.most).toBeLessThanOrEqual(UPLOAD_YIELD_FEATURES);
    expect(pacer.mostBytes).toBeLessThanOrEqual(UPLOAD_SLICE_BYTES);
    // Before every slice but the first.
    expect(pacer.yields).toBeGreaterThanOrEqual(Math.ceil(file.length / UPLOAD_SLICE_BYTES) - 1);
    expect(ticks).toBeGreaterThan(pacer.yields / 2);
  }, 120_000);
});
