// Chooses the delimiter (comma, semicolon or tab) from the header and the first rows, quote-aware like d3-dsv.

export type Delimiter = "," | ";" | "\t";

export const DELIMITERS: readonly Delimiter[] = [",", ";", "\t"];
const SAMPLE_RECORDS = 11; // header plus 10 data rows

const QUOTE = 34,
  LF = 10,
  CR = 13,
  SPACE = 32,
  TAB = 9;

// Field counts of the first non-blank records; a quote opens a quoted field only at a field start, as in d3-dsv.
export function sampleFieldCounts(text: string, delimiter: Delimiter, maxRecords = SAMPLE_RECORDS): number[] {
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  const counts: number[] = [];
  let i = 0;
  while (i < n && counts.length < maxRecords) {
    let fields = 1;
    let nonBlank = false;
    let atFieldStart = true;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (atFieldStart && c === QUOTE) {
        let j = i + 1;
        for (;;) {
          const k = text.indexOf('"', j);
          if (k < 0) {
            j = n;
            break;
          }
          if (text.charCodeAt(k + 1) === QUOTE) {
            j = k + 2;
            continue;
          }
          j = k + 1;
          break;
        }
        nonBlank = true;
        atFieldStart = false;
        i = j;
        continue;
      }
      if (c === d) {
        fields++;
        atFieldStart = true;
        i++;
        continue;
      }
      if (c === LF) {
        i++;
        break;
      }
      if (c === CR) {
        i += text.charCodeAt(i + 1) === LF ? 2 : 1;
        break;
      }
      if (c !== SPACE && c !== TAB) nonBlank = true;
      atFieldStart = false;
      i++;
    }
    if (nonBlank) counts.push(fields);
  }
  return counts;
}

// Most data rows agreeing with the header's field count wins, then most header delimiters, then the order above.
export function detectDelimiter(text: string): Delimiter {
  let best: Delimiter = ",";
  let bestAgree = -1;
  let bestHeader = 0;
  for (const delim of DELIMITERS) {
    const counts = sampleFieldCounts(text, delim);
    const header = counts[0];
    if (header === undefined || header < 2) continue;
    let agree = 0;
    for (let r = 1; r < counts.length; r++) if (counts[r] === header) agree++;
    if (agree > bestAgree || (agree === bestAgree && header > bestHeader)) {
      best = delim;
      bestAgree = agree;
      bestHeader = header;
    }
  }
  return best;
}
