// Inflates one deflate stream under a ceiling: input goes in steps small enough that one step cannot overshoot far.
import { Inflate } from "fflate";

/** The most one byte of deflate input can inflate to: a 258-byte match coded in 2 bits. */
export const MAX_DEFLATE_RATIO = 1032;
// Near the ceiling one step inflates to at most ~8.3 MiB; fflate allocates 160 KiB a step, so smaller steps are slower.
export const MIN_INFLATE_STEP = 8 * 1024;
const MAX_INFLATE_STEP = 64 * 1024;

/** Counts the work done, so tests assert it rather than wall time. */
export interface InflateWork {
  bytesInflated: number;
}

/** The stream inflates to more than the ceiling; inflation stopped within one step of it. */
export class OverCeilingError extends Error {}

/** Inflates `src` to at most `ceiling` bytes; the output array is exactly as long as what was inflated. */
export function inflateBounded(src: Uint8Array, ceiling: number, work: InflateWork): Uint8Array {
  // Sized from the bytes received, not from what the headers claim: a few hundred bytes cannot make it allocate 64 MiB.
  let out = new Uint8Array(Math.min(ceiling, Math.max(64 * 1024, src.length * 8)));
  let length = 0;
  const inflater = new Inflate((chunk) => {
    work.bytesInflated += chunk.length;
    const end = length + chunk.length;
    if (end > ceiling) throw new OverCeilingError(`inflates to more than ${ceiling} bytes`);
    if (end > out.length) {
      // Doubling, capped at the ceiling: what is held never exceeds twice what was inflated, nor the ceiling.
      const grown = new Uint8Array(Math.min(ceiling, Math.max(end, out.length * 2)));
      grown.set(out.subarray(0, length));
      out = grown;
    }
    out.set(chunk, length);
    length = end;
  });
  let at = 0;
  do {
    const room = ceiling - length;
    const step = Math.min(MAX_INFLATE_STEP, Math.max(MIN_INFLATE_STEP, Math.ceil(room / MAX_DEFLATE_RATIO)));
    const next = Math.min(src.length, at + step);
    inflater.push(src.subarray(at, next), next === src.length);
    at = next;
  } while (at < src.length);
  return length === out.length ? out : out.subarray(0, length);
}
