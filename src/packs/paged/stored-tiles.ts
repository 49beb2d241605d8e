// Tiles a v2 pack stores whole (after its overview pages): read in one request and checked against the root.
import { crc32 } from "../crc32.ts";
import { EtagMismatchError, PagedPackError } from "./errors.ts";
import type { Root } from "./root.ts";
import type { Source } from "./source.ts";

/** A stored tile failed its checksum or was cut short: that tile is refused, the rest of the pack still serves. */
export class StoredTileRefusedError extends PagedPackError {}

/** Stored tile `i` of the snapshot's list: its bytes, or null when it was stored empty. */
export async function readStoredTile(
  source: Source,
  s: { key: string; etag: string; root: Root },
  i: number,
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  const [z, x, y, length, crc] = s.root.meta.tiles?.list[i] ?? [0, 0, 0, 0, 0];
  if (length === 0) return null;
  const start = s.root.tileOffsets[i] as number;
  const r = await source.getBytes(start, length, signal, s.etag);
  if (r.etag !== s.etag)
    throw new EtagMismatchError(s.key, `pack ${s.key} changed (etag ${r.etag}, root read at ${s.etag})`);
  const name = `pack ${s.key}: stored tile ${z}/${x}/${y}`;
  if (r.data.length !== length) {
    throw new StoredTileRefusedError(
      s.key,
      `${name} needs bytes [${start}, ${start + length}) but the object ends at ${r.size}`,
    );
  }
  const got = crc32(r.data);
  if (got !== crc) {
    throw new StoredTileRefusedError(
      s.key,
      `${name} is damaged (crc32 ${got.toString(16)}, root says ${crc.toString(16)})`,
    );
  }
  return r.data;
}
