// A hostile gazetteer: 120k distinct suburb-like names made from the syllables real Sydney names share
// ("par", "ra", "mat", "ta", ...), so nearly every query shares bigrams with thousands of them. Pure TS, seeded.
import { seededRandom } from "../../scripts/pack/random.ts";

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

/** `count` distinct names of 2 to 5 syllables and an optional second word, e.g. "Parramatta Heights". */
export function hostileSuburbNames(count = 120_000, seed = 31): string[] {
  const next = seededRandom(seed);
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
