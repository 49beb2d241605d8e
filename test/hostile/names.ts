// A hostile gazetteer: 120k distinct suburb-like names made from the syllables real Sydney names share
// ("par", "ra", "mat", "ta", ...), so nearly every query shares bigrams with thousands of them. Pure TS, seeded.

const SYLLABLES = [
  "par",
  "ra",
  "mat",
  "ta",
  "new",
  "town",
  "ash",
  "field",
  "bel",
  "more",
  "cam",
  "den",
  "west",
  "mead",
  "ro",
  "se",
  "ville",
  "bur",
  "wood",
  "ly",
  "ston",
  "ham",
  "pa",
  "mer",
  "ri",
  "ver",
  "glen",
  "ing",
  "ton",
  "ba",
  "ulk",
  "kel",
  "lan",
  "dale",
  "wa",
  "ran",
  "ar",
  "ma",
  "tta",
  "ne",
  "wt",
  "on",
];
const SECOND = ["", "", "", " Park", " Heights", " North", " South", " West", " Vale", " Hills", " Point", " Bay"];

/** A small deterministic PRNG (mulberry32), so every run builds the same gazetteer. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct names of 2 to 5 syllables and an optional second word, e.g. "Parramatta Heights". */
export function hostileSuburbNames(count = 120_000, seed = 31): string[] {
  const next = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const names = new Set<string>();
  while (names.size < count) {
    const n = 2 + Math.floor(next() * 4);
    let word = "";
    for (let i = 0; i < n; i++) word += pick(SYLLABLES);
    names.add(`${word[0]?.toUpperCase()}${word.slice(1)}${pick(SECOND)}`);
  }
  return [...names];
}
