// Reads back the text a report drew: pdf-lib parses the file, each page's content streams are inflated and
// the strings shown with Tj are decoded from WinAnsi. Works in Node and in workerd (no poppler needed).
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream, type PDFPage } from "pdf-lib";

// WinAnsi 0x80-0x9F; every other byte of a standard-font string is Latin-1.
const CP1252 =
  "\u20AC\uFFFD\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\uFFFD\u017D\uFFFD\uFFFD\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\uFFFD\u017E\u0178";

function winAnsi(hex: string): string {
  let out = "";
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const b = Number.parseInt(hex.slice(i, i + 2), 16);
    out += b >= 0x80 && b <= 0x9f ? CP1252[b - 0x80] : String.fromCharCode(b);
  }
  return out;
}

function streamsOf(page: PDFPage): PDFRawStream[] {
  const contents = page.node.Contents();
  if (contents instanceof PDFArray)
    return contents.asArray().flatMap((ref) => {
      const s = page.doc.context.lookup(ref);
      return s instanceof PDFRawStream ? [s] : [];
    });
  return contents instanceof PDFRawStream ? [contents] : [];
}

/** The raw operators of a page, inflated. */
export function pageOperators(page: PDFPage): string {
  let ops = "";
  for (const s of streamsOf(page)) {
    const bytes = decodePDFRawStream(s).decode();
    for (let i = 0; i < bytes.length; i++) ops += String.fromCharCode(bytes[i] as number);
  }
  return ops;
}

/** Every string each page shows, one per line, in drawing order. */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return doc
    .getPages()
    .map((page) =>
      [...pageOperators(page).matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((m) => winAnsi(m[1] ?? "")).join("\n"),
    );
}
