// Where a pack's bytes live: one interface, an R2 implementation for the Worker and a counting in-memory double for tests.
import { EtagMismatchError, PackNotFoundError } from "./errors.ts";

export type RangeResult = {
  data: Uint8Array;
  etag: string;
  // The whole object's size, so a reader can tell a truncated object from a short read.
  size: number;
};

export interface Source {
  // Identifies the object (its R2 key); caches key pages by it and the etag.
  readonly key: string;
  /** Bytes [offset, offset+length), fewer at the end of the object; with `etag`, refuses a changed object. */
  getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult>;
  /** The object stored beside this one under `key + suffix` (a pack's search sidecar), where the store has such. */
  beside?(suffix: string): Source;
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

export class R2Source implements Source {
  readonly key: string;
  private readonly bucket: R2Bucket;

  constructor(bucket: R2Bucket, key: string) {
    this.bucket = bucket;
    this.key = key;
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult> {
    checkAbort(signal);
    const obj = await this.bucket.get(this.key, {
      range: { offset, length },
      ...(etag ? { onlyIf: { etagMatches: etag } } : {}),
    });
    if (obj === null) throw new PackNotFoundError(this.key, `pack ${this.key} not found`);
    const current = obj.etag;
    // A failed precondition returns the object's metadata without a body.
    if (!("body" in obj))
      throw new EtagMismatchError(this.key, `pack ${this.key} changed (etag ${current}, expected ${etag})`);
    const data = new Uint8Array(await obj.arrayBuffer());
    checkAbort(signal);
    return { data, etag: obj.etag, size: obj.size };
  }

  beside(suffix: string): Source {
    return new R2Source(this.bucket, `${this.key}${suffix}`);
  }
}

export type ReadLog = { offset: number; length: number };

/** An in-memory object that counts reads and bytes, can add latency per read, and can be replaced (a new etag). */
export class MemorySource implements Source {
  readonly key: string;
  reads = 0;
  bytesRead = 0;
  log: ReadLog[] = [];
  latencyMs: number;
  private bytes: Uint8Array;
  private etag: string;

  constructor(key: string, bytes: Uint8Array, opts: { etag?: string; latencyMs?: number } = {}) {
    this.key = key;
    this.bytes = bytes;
    this.etag = opts.etag ?? "v1";
    this.latencyMs = opts.latencyMs ?? 0;
  }

  /** Replaces the object, as a new upload under the same key would. */
  replace(bytes: Uint8Array, etag: string): void {
    this.bytes = bytes;
    this.etag = etag;
  }

  /** The live bytes, for tests that damage them in place. */
  get data(): Uint8Array {
    return this.bytes;
  }

  resetCounts(): void {
    this.reads = 0;
    this.bytesRead = 0;
    this.log = [];
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult> {
    checkAbort(signal);
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    checkAbort(signal);
    if (etag !== undefined && etag !== this.etag) {
      throw new EtagMismatchError(this.key, `pack ${this.key} changed (etag ${this.etag}, expected ${etag})`);
    }
    const end = Math.min(this.bytes.length, offset + length);
    // A copy, as a network read would give: nothing aliases the stored object.
    const data = this.bytes.slice(Math.min(offset, end), end);
    this.reads++;
    this.bytesRead += data.length;
    this.log.push({ offset, length: data.length });
    return { data, etag: this.etag, size: this.bytes.length };
  }
}
