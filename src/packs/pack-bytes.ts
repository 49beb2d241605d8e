// A pack file held whole in memory (a script's input, a test's fixture) as one Pack, whichever format it is: v2 read
// whole as the registry reads a pack of layers (a lots pack's pages joined likewise), v1 by the reader kept for files
// and objects written before v2.
import { PAGED_VERSION, wholePackOfBytes } from "./paged/index.ts";
import type { Pack } from "./types.ts";
import { decodePack } from "./v1/decode.ts";

/** The format version in bytes 4-5 (0 for fewer than 6 bytes, which neither reader takes). */
export function formatOfBytes(bytes: Uint8Array): number {
  return bytes.length < 6 ? 0 : (bytes[4] as number) | ((bytes[5] as number) << 8);
}

/** The pack these bytes hold; `key` names it in a refusal. */
export function readPackBytes(bytes: Uint8Array, key = "pack"): Pack {
  return formatOfBytes(bytes) === PAGED_VERSION ? wholePackOfBytes(bytes, key) : decodePack(bytes);
}
