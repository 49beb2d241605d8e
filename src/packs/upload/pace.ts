// Paces reading an upload in its request (issue 47, finding 3): the file is parsed a slice at a time and its features
// checked a batch at a time, yielding to the event loop between, so other requests on the isolate interleave: between
// two yields, at most one slice is parsed and at most one batch of features checked.
import { nextTask } from "../../lib/next-task.ts";

/** Features checked between two yields: a few milliseconds of checks, whatever the file holds. */
export const UPLOAD_YIELD_FEATURES = 250;
/** Bytes of GeoJSON text parsed between two yields (parsing costs about a microsecond a byte at worst). */
export const UPLOAD_SLICE_BYTES = 16 * 1024;

/** The most features checked between two yields by any upload on this isolate, and yields made (for tests). */
export const uploadPaceStats = { mostBetweenYields: 0, yields: 0, features: 0 };

export class UploadPacer {
  private since = 0;
  private bytesSince = 0;
  /** The most features checked between two yields, and bytes parsed. */
  most = 0;
  mostBytes = 0;
  yields = 0;
  features = 0;
  private readonly every: number;

  constructor(every = UPLOAD_YIELD_FEATURES) {
    this.every = every;
  }

  /** Yields first when a batch of features has been checked, or `bytes` more would pass a slice, since the last yield. */
  async room(bytes = 0): Promise<void> {
    if (this.since < this.every && this.bytesSince + bytes <= UPLOAD_SLICE_BYTES) return;
    this.since = 0;
    this.bytesSince = 0;
    this.yields++;
    uploadPaceStats.yields++;
    await nextTask();
  }

  parsed(bytes: number): void {
    this.bytesSince += bytes;
    this.mostBytes = Math.max(this.mostBytes, this.bytesSince);
  }

  checked(): void {
    this.since++;
    this.features++;
    uploadPaceStats.features++;
    this.most = Math.max(this.most, this.since);
    uploadPaceStats.mostBetweenYields = Math.max(uploadPaceStats.mostBetweenYields, this.since);
  }
}
