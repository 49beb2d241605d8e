// The .dbf header's record count and sizes: the `shapefile` reader trusts neither, so a short .dbf gives features no attributes.

export interface DbfHeader {
  records: number;
  headerLength: number;
  recordLength: number;
}

/** The header of a dBASE file, or a sentence saying why it cannot hold the records it declares. */
export function dbfHeader(bytes: Uint8Array, name: string): DbfHeader | string {
  if (bytes.length < 33) return `${name} is not a dBASE file: it has ${bytes.length} bytes, fewer than a header needs`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const recordLength = view.getUint16(10, true);
  if (headerLength < 33 || recordLength < 1) {
    return `${name} is not a dBASE file: its header declares a ${headerLength}-byte header and ${recordLength}-byte records`;
  }
  const needed = headerLength + records * recordLength;
  if (bytes.length < needed) {
    const whole = bytes.length < headerLength ? 0 : Math.floor((bytes.length - headerLength) / recordLength);
    return `${name} is truncated: its header declares ${records.toLocaleString("en-AU")} records (${needed.toLocaleString("en-AU")} bytes) but it holds ${bytes.length.toLocaleString("en-AU")} bytes, ${whole.toLocaleString("en-AU")} whole records`;
  }
  return { records, headerLength, recordLength };
}
