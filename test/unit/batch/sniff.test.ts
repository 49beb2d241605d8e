import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeCsvBytes, parseSitesCsv, sniffBinary } from "../../../src/batch/csv.ts";
import { decodeWindows1252 } from "../../../src/batch/sniff.ts";

function bytesOf(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/csv/${name}`, import.meta.url)));
}

const enc = new TextEncoder();

describe("sniffBinary", () => {
  it("passes plain text, UTF-8 with BOM and UTF-16 with BOM", () => {
    expect(sniffBinary(enc.encode("lat,lon\n-33.8,151.2\n"))).toBeNull();
    expect(sniffBinary(bytesOf("excel-bom-crlf.csv"))).toBeNull();
    expect(sniffBinary(bytesOf("utf16le-tab.txt"))).toBeNull();
    expect(sniffBinary(new Uint8Array())).toBeNull();
  });

  it("names zip, gzip and other compressed files", () => {
    expect(sniffBinary(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]))).toBe(
      "The file looks like a compressed or binary file (zip). Upload a plain-text CSV.",
    );
    expect(sniffBinary(new Uint8Array([0x1f, 0x8b, 0x08, 0]))).toBe(
      "The file looks like a compressed or binary file (gzip). Upload a plain-text CSV.",
    );
    expect(sniffBinary(new Uint8Array([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0]))).toMatch(/\(7z\)/);
  });

  it("recognises Excel workbooks and suggests saving as CSV", () => {
    const xlsx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...enc.encode("....[Content_Types].xml....xl/workbook.xml")]);
    expect(sniffBinary(xlsx)).toMatch(
      /^The file looks like an Excel workbook \(xlsx\), not a CSV\. Save it as "CSV UTF-8/,
    );
    expect(sniffBinary(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]))).toMatch(/\(xls\)/);
  });

  it("recognises PDFs and images", () => {
    expect(sniffBinary(enc.encode("%PDF-1.7\n"))).toBe(
      "The file looks like a PDF document, not a CSV. Upload a plain-text CSV.",
    );
    expect(sniffBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toMatch(/PNG image/);
  });

  it("flags NUL bytes in the first 8 KiB", () => {
    expect(sniffBinary(new Uint8Array([0x61, 0x2c, 0x62, 0x00, 0x63]))).toMatch(/NUL bytes/);
    const late = new Uint8Array(9000).fill(0x61);
    late[8999] = 0;
    expect(sniffBinary(late)).toBeNull();
  });
});

describe("decodeCsvBytes", () => {
  it("decodes UTF-8 and drops its BOM", () => {
    const r = decodeCsvBytes(bytesOf("excel-bom-crlf.csv"));
    expect(r.ok && r.encoding).toBe("utf-8");
    expect(r.ok && r.text.startsWith("Site Name,")).toBe(true);
  });

  it("falls back to Windows-1252 for Excel's legacy CSV", () => {
    const r = decodeCsvBytes(bytesOf("windows-1252.csv"));
    if (!r.ok) throw new Error(r.detail);
    expect(r.encoding).toBe("windows-1252");
    const p = parseSitesCsv(r.text);
    expect(p.ok && p.rows[0]?.extra["name"]).toBe("Café – corner");
  });

  it("decodes UTF-16 little- and big-endian text with a BOM", () => {
    const le = decodeCsvBytes(bytesOf("utf16le-tab.txt"));
    if (!le.ok) throw new Error(le.detail);
    expect(le.encoding).toBe("utf-16le");
    const p = parseSitesCsv(le.text);
    expect(p.ok && p.delimiter).toBe("\t");
    expect(p.ok && p.rows[0]).toMatchObject({ lat: -33.8688, lon: 151.2093, extra: { name: "Café" } });
    const be = decodeCsvBytes(new Uint8Array([0xfe, 0xff, 0x00, 0x61, 0x00, 0xe9, 0xd8, 0x3d, 0xde, 0x00]));
    expect(be.ok && be.text).toBe("aé😀");
  });

  it("rejects binary content with the sniffed reason", () => {
    expect(decodeCsvBytes(new Uint8Array([0x1f, 0x8b, 0x08, 0]))).toEqual({
      ok: false,
      detail: "The file looks like a compressed or binary file (gzip). Upload a plain-text CSV.",
    });
  });

  it("maps the Windows-1252 range 0x80-0x9F", () => {
    expect(decodeWindows1252(new Uint8Array([0x80, 0x93, 0x94, 0x81, 0xe9]))).toBe("€“”\ufffdé");
  });
});
