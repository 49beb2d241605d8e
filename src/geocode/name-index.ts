// A gazetteer's names indexed once, so a keystroke does work bounded by what matches, not by the layer's
// size: sorted names (prefixes), sorted later-word suffixes (a later word) and positional bigram postings
// that narrow near misses to at most a fixed number of names scored by edit distance.

/** Names scored by edit distance per query, at most: the rest of a 120k-name layer is never compared. */
export const MAX_SCORED = 200;
/** Later-word matches read per query, at most (in suffix order), before the best are chosen. */
export const MAX_WORD_MATCHES = 1000;
// Bigrams are indexed up to this position of "^" + name (a query is compared over its first 62 characters).
const MAX_POS = 66;

export interface NameIndex {
  /** Normalised names, sorted. */
  keys: string[];
  /** The layer row of each key. */
  rows: number[];
  /** Every later word of every name with the rest of the name ("hills" of "baulkham hills"), sorted. */
  words: string[];
  /** The key each entry of `words` came from. */
  wordKey: Int32Array;
  /** Bigram id (gramId) of "^" + key -> [start, end) of the keys holding it there, in `postings`. */
  grams: Map<number, readonly [number, number]>;
  postings: Int32Array;
  // Scratch for counting shared bigrams (the search is synchronous, so one per index is safe).
  counts: Int32Array;
  stamp: Int32Array;
}

/** Work done by one query, for tests and logs. */
export interface SearchWork {
  /** Names compared by edit distance. */
  scored: number;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// One number per (position, bigram): names are normalised to ASCII, so a character code fits in 7 bits.
const gramId = (pos: number, text: string, i: number): number =>
  pos * 16384 + (text.charCodeAt(i) & 127) * 128 + (text.charCodeAt(i + 1) & 127);

/** Builds the index of normalised names at their layer rows: [name, row] pairs. */
export function buildNameIndex(pairs: readonly (readonly [string, number])[]): NameIndex {
  const sorted = [...pairs].sort((a, b) => cmp(a[0], b[0]) || a[1] - b[1]);
  const keys = sorted.map((p) => p[0]);
  const words: [string, number][] = [];
  // Postings in two passes (count, then place) into one flat array: no list per bigram.
  const sizes = new Map<number, number>();
  const each = (k: number, visit: (id: number) => void) => {
    const padded = `^${keys[k]}`;
    for (let i = 0; i + 1 < padded.length && i < MAX_POS; i++) visit(gramId(i, padded, i));
  };
  keys.forEach((key, k) => {
    for (let p = key.indexOf(" "); p >= 0; p = key.indexOf(" ", p + 1)) words.push([key.slice(p + 1), k]);
    each(k, (id) => sizes.set(id, (sizes.get(id) ?? 0) + 1));
  });
  const grams = new Map<number, readonly [number, number]>();
  const cursor = new Map<number, number>();
  let total = 0;
  for (const [id, n] of sizes) {
    grams.set(id, [total, total + n]);
    cursor.set(id, total);
    total += n;
  }
  const postings = new Int32Array(total);
  for (let k = 0; k < keys.length; k++)
    each(k, (id) => {
      const at = cursor.get(id) as number;
      postings[at] = k;
      cursor.set(id, at + 1);
    });
  words.sort((a, b) => cmp(a[0], b[0]) || a[1] - b[1]);
  return {
    keys,
    rows: sorted.map((p) => p[1]),
    words: words.map((w) => w[0]),
    wordKey: Int32Array.from(words, (w) => w[1]),
    grams,
    postings,
    counts: new Int32Array(keys.length),
    stamp: new Int32Array(keys.length),
  };
}

export function lowerBound(keys: readonly string[], q: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Keys (indices) with a later word starting with `q`, at most MAX_WORD_MATCHES, each once. */
export function laterWordMatches(index: NameIndex, q: string): number[] {
  const out = new Set<number>();
  const end = Math.min(index.words.length, lowerBound(index.words, q) + MAX_WORD_MATCHES);
  for (let w = lowerBound(index.words, q); w < end && (index.words[w] as string).startsWith(q); w++)
    out.add(index.wordKey[w] as number);
  return [...out];
}

/**
 * Keys that may be within `maxEdits` of a prefix of `q`, best first, at most `cap`. A name within k edits
 * keeps all but 3k of the query's bigrams (an edit or transposition breaks at most 3), each moved at most
 * k places; only names sharing that many are candidates, ranked by how many they share, then by name.
 * Keys for which `skip` holds (already suggested) take no place.
 */
export function nearCandidates(
  index: NameIndex,
  q: string,
  maxEdits: number,
  cap: number,
  skip: (k: number) => boolean = () => false,
): number[] {
  const padded = `^${q.slice(0, 62)}`;
  const gramCount = padded.length - 1;
  const need = Math.max(1, gramCount - 3 * maxEdits);
  const { counts, stamp } = index;
  const touched: number[] = [];
  for (let i = 0; i < gramCount; i++) {
    for (let pos = Math.max(0, i - maxEdits); pos <= i + maxEdits; pos++) {
      const range = index.grams.get(gramId(pos, padded, i));
      if (!range) continue;
      for (let at = range[0]; at < range[1]; at++) {
        const k = index.postings[at] as number;
        // Each query bigram counts once per name, wherever in its window it is found.
        if (stamp[k] === i + 1) continue;
        if (stamp[k] === 0) touched.push(k);
        stamp[k] = i + 1;
        counts[k] = (counts[k] as number) + 1;
      }
    }
  }
  // Group by shared count, highest first; within a count, alphabetical (key order).
  const byCount: number[][] = [];
  for (const k of touched) {
    const c = counts[k] as number;
    if (c >= need && !skip(k)) {
      const group = byCount[c];
      if (group) group.push(k);
      else byCount[c] = [k];
    }
    counts[k] = 0;
    stamp[k] = 0;
  }
  const out: number[] = [];
  for (let c = byCount.length - 1; c >= need && out.length < cap; c--) {
    const group = byCount[c];
    if (!group) continue;
    group.sort((a, b) => a - b);
    for (const k of group) {
      if (out.length >= cap) break;
      out.push(k);
    }
  }
  return out;
}
