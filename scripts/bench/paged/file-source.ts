// A pack read from a local file by position, as R2 serves ranges: counts reads and bytes, optionally waits per read.
import { type FileHandle, open } from "node:fs/promises";
import { EtagMismatchError, type RangeResult, type Source } from "../../../src/packs/paged/index.ts";

export class FileSource implements Source {
  readonly key: string;
  reads = 0;
  bytesRead = 0;
  latencyMs: number;
  private readonly handle: FileHandle;
  private readonly size: number;
  private readonly etag: string;

  private constructor(key: string, handle: FileHandle, size: number, etag: string, latencyMs: number) {
    this.key = key;
    this.handle = handle;
    this.size = size;
    this.etag = etag;
    this.latencyMs = latencyMs;
  }

  /** Opens `path`; its size and modification time stand in for R2's etag. */
  static async open(path: string, opts: { key?: string; latencyMs?: number } = {}): Promise<FileSource> {
    const handle = await open(path, "r");
    const st = await handle.stat();
    return new FileSource(opts.key ?? path, handle, st.size, `${st.size}-${st.mtimeMs}`, opts.latencyMs ?? 0);
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResult> {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    if (etag !== undefined && etag !== this.etag) {
      throw new EtagMismatchError(this.key, `pack ${this.key} changed (etag ${this.etag}, expected ${etag})`);
    }
    const start = Math.min(Math.max(0, offset), this.size);
    const end = Math.min(this.size, start + length);
    // A fresh buffer per read, as a network read gives: nothing aliases another read.
    const data = new Uint8Array(end - start);
    let at = 0;
    while (at < data.length) {
      const { bytesRead } = await this.handle.read(data, at, data.length - at, start + at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    this.reads++;
    this.bytesRead += at;
    return { data: at === data.length ? data : data.subarray(0, at), etag: this.etag, size: this.size };
  }
}
