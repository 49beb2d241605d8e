// Text for the standard fonts: anything a client sends can be drawn, and lines keep to their width.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { PDFDocument, StandardFonts, type PDFFont } from "pdf-lib";
import { ELLIPSIS, SUBSTITUTE, fitText, toWinAnsi, wrapText } from "../../../src/report/pdf/text.ts";

let font: PDFFont;
beforeAll(async () => {
  font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
});

describe("toWinAnsi", () => {
  it("keeps Western European text and typography as it is", () => {
    const s = "Café “Zoë” – 12 m² · €5 — naïve ‘quote’…";
    expect(toWinAnsi(s)).toBe(s);
  });

  it("substitutes CJK and emoji visibly, one mark per character, without the emoji's joiners", () => {
    expect(toWinAnsi("新城 lot 🏠")).toBe(`${SUBSTITUTE}${SUBSTITUTE} lot ${SUBSTITUTE}`);
    expect(toWinAnsi("👨‍👩‍👧")).toBe(SUBSTITUTE.repeat(3));
    expect(toWinAnsi("❤️")).toBe(SUBSTITUTE);
  });

  it("drops accents outside WinAnsi and spells out common symbols", () => {
    expect(toWinAnsi("Łódź Ő ≤ 5 → x")).toBe("Lódz O <= 5 -> x");
  });

  it("turns line breaks, tabs and control characters into single spaces", () => {
    expect(toWinAnsi("a\nb\r\n\tc\u0000d\u2028e")).toBe("a b c d e");
  });

  it("never yields a string the standard font refuses to encode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        const out = toWinAnsi(s);
        expect(() => font.encodeText(out)).not.toThrow();
        expect(out).not.toMatch(/[\n\r]/);
      }),
      { numRuns: 200 },
    );
  });
});

describe("fitting and wrapping", () => {
  it("fitText leaves short text alone and cuts long text with an ellipsis inside the width", () => {
    expect(fitText("Lot 1", font, 10, 200)).toBe("Lot 1");
    const cut = fitText("x".repeat(10_000), font, 10, 120);
    expect(cut.endsWith(ELLIPSIS)).toBe(true);
    expect(font.widthOfTextAtSize(cut, 10)).toBeLessThanOrEqual(120);
  });

  it("wrapText never exceeds the width, breaks words longer than a line, and ends a cut paragraph with an ellipsis", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 60 }).map(toWinAnsi), { maxLength: 40 }),
        fc.integer({ min: 40, max: 400 }),
        (words, width) => {
          const text = words.join(" ");
          for (const line of wrapText(text, font, 9, width))
            expect(font.widthOfTextAtSize(line, 9)).toBeLessThanOrEqual(width + 1e-9);
          const capped = wrapText(text, font, 9, width, 2);
          expect(capped.length).toBeLessThanOrEqual(2);
        },
      ),
      { numRuns: 300 },
    );
    const long = wrapText("word ".repeat(200), font, 9, 100, 3);
    expect(long).toHaveLength(3);
    expect(long[2]?.endsWith(ELLIPSIS)).toBe(true);
    expect(wrapText("Supercalifragilisticexpialidocious", font, 9, 40).length).toBeGreaterThan(1);
  });

  it("keeps every word of text that fits", () => {
    const text = "The point supplied for this site lies in this cadastre lot.";
    expect(wrapText(text, font, 9, 120).join(" ")).toBe(text);
  });
});
