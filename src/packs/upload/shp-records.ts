// The .shp's record headers walked before the `shapefile` reader runs: it allocates whatever length a header claims.

/** How many records the .shp holds, or a sentence saying which record claims bytes the file does not have. */
export function shpRecordCount(bytes: Uint8Array, name: string): number | string {
  if (bytes.length < 100)
    return `${name} is not a Shapefile: it has ${bytes.length} bytes, fewer than its header needs`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let records = 0;
  // Each record: an 8-byte header (number, content length in 16-bit words, big-endian), then its content.
  for (let at = 100; at < bytes.length; records++) {
    if (at + 8 > bytes.length) return `${name} ends inside the header of record ${records}`;
    const length = view.getInt32(at + 4) * 2;
    if (length < 4 || at + 8 + length > bytes.length) {
      return `Record ${records} of ${name} claims ${length.toLocaleString("en-AU")} bytes but the file has ${Math.max(0, bytes.length - at - 8).toLocaleString("en-AU")} left`;
    }
    at += 8 + length;
  }
  return records;
}
