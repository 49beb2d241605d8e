// CRC-32 (IEEE 802.3, the polynomial zip uses): checks each unzipped member against its central directory entry.

// Signed entries keep every step in 32-bit integers, which V8 does not box.
const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** Continues `crc` (0 to start) over `bytes`; one table look-up per byte. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  const n = bytes.length;
  for (let i = 0; i < n; i++) c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}
