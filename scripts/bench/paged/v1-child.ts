// Child: today's v1 path, a 1M-lot pack encoded and decoded whole (as scripts/bench/packs.ts does), then queried.
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { parcelAt } from "../../../src/packs/spatial.ts";
import { gridPackBytes } from "../packs.ts";
import { childMain } from "./child.ts";
import { type MemoryPeaks, retainedNow, Sampler } from "./sampler.ts";

export type V1Job = { side: number; queries: number };
export type V1Report = {
  baseline: number;
  peaks: MemoryPeaks;
  loaded: number;
  loadedArrayBuffers: number;
  packBytes: number;
  lots: number;
  hits: number;
  maxRssBytes: number;
};

async function run(job: V1Job): Promise<V1Report> {
  const baseline = await retainedNow();
  const sampler = new Sampler();
  let bytes: Uint8Array | null = gridPackBytes(job.side, "index");
  const packBytes = bytes.byteLength;
  const packs = [decodePack(bytes)];
  // The pack holds views of the bytes it was decoded from; the caller's reference is all that is dropped here.
  bytes = null;
  const loaded = await retainedNow();
  const loadedArrayBuffers = process.memoryUsage().arrayBuffers;
  await sampler.collect();
  const layer = packs[0]?.layers.get("parcels");
  const [w, s, e, n] = layer?.bbox ?? [0, 0, 0, 0];
  let hits = 0;
  for (let k = 0; k < job.queries; k++) {
    const u = ((k * 0.618034) % 1) * (e - w);
    const v = ((k * 0.414214) % 1) * (n - s);
    if (parcelAt(packs, w + u, s + v)) hits++;
    sampler.sample();
    if (k % 500 === 0) await sampler.collect();
  }
  await sampler.collect();
  return {
    baseline,
    peaks: sampler.peaks(),
    loaded,
    loadedArrayBuffers,
    packBytes,
    lots: layer?.count ?? 0,
    hits,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

await childMain(run);
