// FNV-1a 32-bit checksum of a pack's bytes: detects truncated or corrupted pack files.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

// FNV-1a over little-endian 32-bit words: one multiply per 4 bytes keeps cold loads fast.
export function checksum32(bytes: Uint8Array): number {
  if (bytes.byteLength % 4 !== 0) throw new RangeError("checksum input must be a multiple of 4 bytes");
  let h = FNV_OFFSET;
  if (bytes.byteOffset % 4 === 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
    const n = words.length;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ (words[i] as number), FNV_PRIME);
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = bytes.byteLength;
    for (let i = 0; i < n; i += 4) h = Math.imul(h ^ view.getUint32(i, true), FNV_PRIME);
  }
  return h >>> 0;
}
