// Child: one cold site search in a fresh process, its peak as pack-memory counts it (issue 53's "Peak"): heap plus
// array buffers after a collection, taken as each read lands (what the engine holds across its awaits, the bytes just
// read included) and once more with the answer in hand.
import { readFileSync } from "node:fs";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import type { RangeResult, Source } from "../../src/packs/paged/index.ts";
import type { SearchQuery } from "../../src/search/query.ts";
import { childMain } from "./paged/child.ts";
import { FileSource } from "./paged/file-source.ts";
import { type MemoryPeaks, retainedNow, Sampler } from "./paged/sampler.ts";
import { coldPack, coldSearch } from "./search-cold.ts";

export type PeakJob = {
  pack: string;
  key: string;
  sidecar: string | null;
  base: string;
  query: SearchQuery;
  latencyMs: number;
};
export type PeakReport = {
  /** Retained before the search: node, the modules, the base pack decoded, the reader's head read. */
  before: number;
  peaks: MemoryPeaks;
  count: number;
};

// A source whose every read is followed by a collection and a sample, before the engine gets the bytes.
class Sampled implements Source {
  readonly key: string;
  private readonly inner: Source;
  private readonly sampler: Sampler;

  constructor(inner: Source, sampler: Sampler) {
    this.key = inner.key;
    this.inner = inner;
    this.sampler = sampler;
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult> {
    const got = await this.inner.getBytes(offset, length, signal, etag);
    await this.sampler.collect();
    return got;
  }
}

async function run(job: PeakJob): Promise<PeakReport> {
  const base = [readPackBytes(readFileSync(job.base), "sydney-suburbs.pack")];
  const opts = { latencyMs: job.latencyMs };
  const source = await FileSource.open(job.pack, { ...opts, key: job.key });
  const side = job.sidecar ? await FileSource.open(job.sidecar, { ...opts, key: `${job.key}.search` }) : null;
  const sampler = new Sampler();
  const pack = await coldPack(new Sampled(source, sampler), side ? new Sampled(side, sampler) : undefined);
  const before = await retainedNow();
  const out = await coldSearch(base, pack, job.query, side !== null);
  // The answer in hand, its result pages read: what the request holds as it replies.
  await sampler.collect();
  const count = out.count;
  await source.close();
  await side?.close();
  return { before, peaks: sampler.peaks(), count };
}

await childMain(run);
