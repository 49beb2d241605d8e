// What R2 would see: one range request per getBytes (merged pages are one), each after R2's first-byte latency.
import type { RangeResult, Source } from "../../../src/packs/paged/index.ts";

export type RangeRequest = { offset: number; length: number };

export const r2LatencyMs = (): number => {
  const raw = process.env.BENCH_R2_LATENCY_MS;
  const ms = raw === undefined || raw === "" ? 20 : Number(raw);
  if (!(ms >= 0)) throw new Error(`BENCH_R2_LATENCY_MS wants milliseconds, not "${raw}"`);
  return ms;
};

export class R2Like implements Source {
  readonly key: string;
  latencyMs: number;
  requests: RangeRequest[] = [];
  private readonly inner: Source;

  constructor(inner: Source, latencyMs: number) {
    this.inner = inner;
    this.key = inner.key;
    this.latencyMs = latencyMs;
  }

  get bytes(): number {
    return this.requests.reduce((s, r) => s + r.length, 0);
  }

  /** Forgets the requests counted so far (the next query's start). */
  reset(): RangeRequest[] {
    const done = this.requests;
    this.requests = [];
    return done;
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult> {
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    const r = await this.inner.getBytes(offset, length, signal, etag);
    this.requests.push({ offset, length: r.data.length });
    return r;
  }
}
