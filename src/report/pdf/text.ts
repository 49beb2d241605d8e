// Text for the standard PDF fonts: only WinAnsi characters can be encoded, lines must fit a width.

/** What text layout needs from a font (pdf-lib's PDFFont satisfies it). */
export interface Measure {
  widthOfTextAtSize(text: string, size: number): number;
}

/** Characters shown in place of ones the fonts cannot draw (CJK, emoji, ...). */
export const SUBSTITUTE = "?";
export const ELLIPSIS = "\u2026";

// Typographic characters outside WinAnsi with a faithful ASCII spelling.
const SPELLED: Record<string, string> = {
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2212": "-",
  "\u2043": "-",
  "\u2032": "'",
  "\u2033": '"',
  "\u2264": "<=",
  "\u2265": ">=",
  "\u2260": "!=",
  "\u2192": "->",
  "\u2190": "<-",
  "\u0141": "L",
  "\u0142": "l",
  "\u0110": "D",
  "\u0111": "d",
  "\u0131": "i",
  "\u0126": "H",
  "\u0127": "h",
  "\u00A0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2009": " ",
  "\u202F": " ",
  "\u2007": " ",
};

// Printable WinAnsi (cp1252) beyond Latin-1: the 0x80-0x9F block.
const CP1252_EXTRA =
  "\u20AC\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u017D\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u017E\u0178";
const WIN_ANSI = new Set<number>([...CP1252_EXTRA].map((c) => c.codePointAt(0) as number));
for (let c = 0x20; c <= 0x7e; c++) WIN_ANSI.add(c);
for (let c = 0xa1; c <= 0xff; c++) if (c !== 0xad) WIN_ANSI.add(c);

/**
 * Makes any string drawable with the standard fonts: control characters and line breaks become spaces,
 * accents outside WinAnsi are dropped (ő -> o), known symbols are spelled out, anything else becomes "?".
 */
export function toWinAnsi(input: string): string {
  // Most text is plain ASCII: nothing to map.
  if (/^[\x20-\x7e]*$/.test(input)) return input.replace(/ {2,}/g, " ").trim();
  let out = "";
  for (const ch of input.normalize("NFC")) {
    const cp = ch.codePointAt(0) as number;
    if (WIN_ANSI.has(cp)) {
      out += ch;
      continue;
    }
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp === 0x2028 || cp === 0x2029) {
      out += " ";
      continue;
    }
    const spelled = SPELLED[ch];
    if (spelled !== undefined) {
      out += spelled;
      continue;
    }
    // Zero-width characters and variation selectors (emoji presentation) carry nothing visible.
    if (
      cp === 0x200b ||
      cp === 0x200c ||
      cp === 0x200d ||
      cp === 0xfeff ||
      cp === 0xad ||
      (cp >= 0xfe00 && cp <= 0xfe0f)
    )
      continue;
    const base = [...ch.normalize("NFKD")].filter((c) => !/\p{M}/u.test(c)).join("");
    out += base !== "" && [...base].every((c) => WIN_ANSI.has(c.codePointAt(0) as number)) ? base : SUBSTITUTE;
  }
  return out.replace(/ {2,}/g, " ").trim();
}

/** Cuts `text` so it fits `width`, ending with an ellipsis when anything was cut (or always, when `cut` is set). */
export function fitText(text: string, font: Measure, size: number, width: number, cut = false): string {
  if (!cut && font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  // Longest prefix that fits with the ellipsis: binary search keeps very long strings cheap.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(chars.slice(0, mid).join("").trimEnd() + ELLIPSIS, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? "" : chars.slice(0, lo).join("").trimEnd() + ELLIPSIS;
}

// Splits a word wider than the line into pieces that fit.
function breakWord(word: string, font: Measure, size: number, width: number): string[] {
  const out: string[] = [];
  let cur = "";
  for (const ch of word) {
    if (cur !== "" && font.widthOfTextAtSize(cur + ch, size) > width) {
      out.push(cur);
      cur = ch;
    } else cur += ch;
  }
  if (cur !== "") out.push(cur);
  return out;
}

/**
 * Wraps `text` into lines no wider than `width`; beyond `maxLines` the last line ends with an ellipsis.
 * Words are measured once and summed (kerning across a space only narrows a line); each line is checked whole.
 */
export function wrapText(text: string, font: Measure, size: number, width: number, maxLines = Infinity): string[] {
  const space = font.widthOfTextAtSize(" ", size);
  const widths = new Map<string, number>();
  const measure = (w: string) => {
    let v = widths.get(w);
    if (v === undefined) {
      v = font.widthOfTextAtSize(w, size);
      widths.set(w, v);
    }
    return v;
  };
  const lines: string[] = [];
  let cur = "";
  let curW = 0;
  const push = (line: string) => {
    // Belt and braces: a line the sum let through but the font measures wider is re-wrapped by characters.
    if (font.widthOfTextAtSize(line, size) <= width) lines.push(line);
    else lines.push(...breakWord(line, font, size, width));
  };
  for (const word of text.split(" ")) {
    if (word === "") continue;
    const w = measure(word);
    if (cur !== "" && curW + space + w <= width) {
      cur += ` ${word}`;
      curW += space + w;
      continue;
    }
    if (cur !== "") push(cur);
    if (w <= width) {
      cur = word;
      curW = w;
    } else {
      const pieces = breakWord(word, font, size, width);
      lines.push(...pieces.slice(0, -1));
      cur = pieces.at(-1) ?? "";
      curW = font.widthOfTextAtSize(cur, size);
    }
    if (lines.length > maxLines) break;
  }
  if (cur !== "") push(cur);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fitText(kept[maxLines - 1] ?? "", font, size, width, true);
  return kept;
}
