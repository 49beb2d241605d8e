// Upload bytes to text: refuse binary files with a useful message, honour BOMs, fall back to Windows-1252.

export interface CsvRejection {
  ok: false;
  detail: string;
}

export interface DecodedText {
  ok: true;
  text: string;
  encoding: "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";
}

const PLAIN_TEXT_HINT = "Upload a plain-text CSV.";
const SAVE_AS_CSV_HINT = 'Save it as "CSV UTF-8 (comma delimited)" and upload that.';

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic[i]) return false;
  return true;
}

function containsAscii(bytes: Uint8Array, needle: string, limit: number): boolean {
  const n = needle.length;
  const end = Math.min(bytes.length, limit) - n;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < n; j++) if (bytes[i + j] !== needle.charCodeAt(j)) continue outer;
    return true;
  }
  return false;
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]);
}

const COMPRESSED: readonly { magic: readonly number[]; kind: string }[] = [
  { magic: [0x1f, 0x8b], kind: "gzip" },
  { magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: "7z" },
  { magic: [0x52, 0x61, 0x72, 0x21], kind: "rar" },
  { magic: [0x42, 0x5a, 0x68], kind: "bzip2" },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: "xz" },
];

const OTHER_FORMATS: readonly { magic: readonly number[]; kind: string }[] = [
  { magic: [0x25, 0x50, 0x44, 0x46], kind: "a PDF document" },
  { magic: [0x89, 0x50, 0x4e, 0x47], kind: "a PNG image" },
  { magic: [0xff, 0xd8, 0xff], kind: "a JPEG image" },
  { magic: [0x47, 0x49, 0x46, 0x38], kind: "a GIF image" },
];

// Returns why the bytes are not a text CSV, or null when they look like text.
export function sniffBinary(bytes: Uint8Array): string | null {
  if (hasUtf16Bom(bytes)) return null;
  const isZip = startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]);
  if (isZip) {
    if (containsAscii(bytes, "xl/", 65536))
      return `The file looks like an Excel workbook (xlsx), not a CSV. ${SAVE_AS_CSV_HINT}`;
    return `The file looks like a compressed or binary file (zip). ${PLAIN_TEXT_HINT}`;
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return `The file looks like an Excel 97-2003 workbook (xls), not a CSV. ${SAVE_AS_CSV_HINT}`;
  }
  for (const c of COMPRESSED)
    if (startsWith(bytes, c.magic))
      return `The file looks like a compressed or binary file (${c.kind}). ${PLAIN_TEXT_HINT}`;
  for (const f of OTHER_FORMATS)
    if (startsWith(bytes, f.magic)) return `The file looks like ${f.kind}, not a CSV. ${PLAIN_TEXT_HINT}`;
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) {
    if (bytes[i] === 0)
      return `The file looks like a compressed or binary file (it contains NUL bytes). ${PLAIN_TEXT_HINT}`;
  }
  return null;
}

// Windows-1252 code points for bytes 0x80..0x9F (the rest equals Latin-1); undefined bytes map to U+FFFD.
const CP1252_HIGH = [
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd,
  0x017d, 0xfffd, 0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0xfffd, 0x017e, 0x0178,
];

// Hand-rolled because not every Workers runtime ships the legacy and UTF-16 decoders.
export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    const codes = new Array<number>(end - start);
    for (let i = start; i < end; i++) {
      const b = bytes[i] ?? 0;
      codes[i - start] = b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] ?? 0xfffd) : b;
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

// UTF-16 code units straight to a string; surrogate pairs survive as they are.
export function decodeUtf16(bytes: Uint8Array, littleEndian: boolean): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  const units = Math.floor(bytes.length / 2);
  for (let start = 0; start < units; start += CHUNK) {
    const end = Math.min(units, start + CHUNK);
    const codes = new Array<number>(end - start);
    for (let u = start; u < end; u++) {
      const a = bytes[2 * u] ?? 0;
      const b = bytes[2 * u + 1] ?? 0;
      codes[u - start] = littleEndian ? a | (b << 8) : (a << 8) | b;
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

// Decodes upload bytes; Excel's "CSV (comma delimited)" is Windows-1252, its "Unicode text" is UTF-16 with a BOM.
export function decodeCsvBytes(bytes: Uint8Array): DecodedText | CsvRejection {
  const binary = sniffBinary(bytes);
  if (binary !== null) return { ok: false, detail: binary };
  if (startsWith(bytes, [0xff, 0xfe]))
    return { ok: true, text: decodeUtf16(bytes.subarray(2), true), encoding: "utf-16le" };
  if (startsWith(bytes, [0xfe, 0xff]))
    return { ok: true, text: decodeUtf16(bytes.subarray(2), false), encoding: "utf-16be" };
  try {
    // TextDecoder drops a UTF-8 BOM by default.
    return {
      ok: true,
      text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes),
      encoding: "utf-8",
    };
  } catch {
    return { ok: true, text: decodeWindows1252(bytes), encoding: "windows-1252" };
  }
}
