// Street addresses as comparable keys: "23 Pembroke Street, Epping NSW 2121" and "23 pembroke st epping" agree.
import { normaliseName, stateCode } from "./gazetteer.ts";

/** Street types as written out (and common variants) -> the abbreviation both sides of a comparison use. */
export const STREET_TYPES: Readonly<Record<string, string>> = {
  street: "st",
  road: "rd",
  avenue: "ave",
  av: "ave",
  parade: "pde",
  place: "pl",
  drive: "dr",
  crescent: "cres",
  cresc: "cres",
  cr: "cres",
  lane: "ln",
  court: "ct",
  highway: "hwy",
  terrace: "tce",
  close: "cl",
  boulevard: "bvd",
  boulevarde: "bvd",
  blvd: "bvd",
  circuit: "cct",
  grove: "gr",
  square: "sq",
  esplanade: "esp",
  parkway: "pkwy",
};

// Words before a unit number that say nothing a slash does not ("Unit 2, 23 X St" is "2/23 X St").
const UNIT_WORDS = new Set(["unit", "u", "apartment", "apt", "flat", "suite", "shop"]);
const POSTCODE = /^\d{4}$/;
const HOUSE_NUMBER = /^\d+[a-z]?$/;

/** The words of an address: normaliseName, unit words dropped, street types abbreviated. */
export function addressWords(s: string): string[] {
  const text = normaliseName(s);
  const words = text === "" ? [] : text.split(" ");
  if (words.length > 1 && UNIT_WORDS.has(words[0] as string) && /^\d/.test(words[1] as string)) words.shift();
  return words.map((w) => STREET_TYPES[w] ?? w);
}

/** The comparable form of an address or of what has been typed of one. */
export function normaliseAddress(s: string): string {
  return addressWords(s).join(" ");
}

/** True when the text starts with a house number ("23", "23a", "2/23", "Unit 2, 23"): only then are addresses looked up. */
export function startsWithHouseNumber(s: string): boolean {
  const first = addressWords(s)[0];
  return first !== undefined && HOUSE_NUMBER.test(first);
}

export type AddressParts = { core: string; state: string | null; postcode: string | null };

/** Splits the optional tail (state, postcode, either or both) off an address; the core keeps at least two words. */
export function addressParts(s: string): AddressParts {
  const words = addressWords(s);
  let postcode: string | null = null;
  if (words.length > 2 && POSTCODE.test(words[words.length - 1] as string)) postcode = words.pop() as string;
  let state: string | null = null;
  // Longest first: "new south wales" before a shorter tail that happens to be a code.
  for (let k = Math.min(3, words.length - 2); k >= 1 && state === null; k--) {
    const code = stateCode(words.slice(-k).join(" "));
    if (code) {
      state = code;
      words.splice(words.length - k, k);
    }
  }
  return { core: words.join(" "), state, postcode };
}

/** The key an address is indexed under: its core, then the state code and postcode it has. */
export function addressKey(s: string): string {
  const { core, state, postcode } = addressParts(s);
  return [core, state?.toLowerCase(), postcode].filter((w) => w).join(" ");
}

/** A prefix to look up: `wholeWord` when its last word is complete, `tail` when only an exact core with this tail fits. */
export type AddressPrefix = { prefix: string; wholeWord: boolean; tail: AddressParts | null };

/**
 * What a typed address may be the start of: as typed; with a half-typed street type completed ("23 pembroke
 * stre" is "23 pembroke st"); and, when it ends with a state or postcode, its core with that tail.
 */
export function addressPrefixes(query: string): AddressPrefix[] {
  const words = addressWords(query);
  if (words.length === 0) return [];
  const out: AddressPrefix[] = [{ prefix: words.join(" "), wholeWord: false, tail: null }];
  const last = words[words.length - 1] as string;
  if (words.length > 1 && last.length >= 2 && !HOUSE_NUMBER.test(last)) {
    const head = words.slice(0, -1).join(" ");
    const done = new Set<string>();
    for (const [full, abbr] of Object.entries(STREET_TYPES)) {
      if (full.startsWith(last) && !abbr.startsWith(last) && !done.has(abbr)) {
        done.add(abbr);
        out.push({ prefix: `${head} ${abbr}`, wholeWord: true, tail: null });
      }
    }
  }
  const parts = addressParts(query);
  if (parts.state !== null || parts.postcode !== null) out.push({ prefix: parts.core, wholeWord: true, tail: parts });
  return out;
}

/** Whether an indexed key (addressKey form) fits a prefix. */
export function keyFits(key: string, p: AddressPrefix): boolean {
  if (!key.startsWith(p.prefix)) return false;
  if (p.wholeWord && key.length > p.prefix.length && key[p.prefix.length] !== " ") return false;
  if (p.tail === null) return true;
  const have = addressParts(key);
  return (
    have.core === p.tail.core &&
    (p.tail.state === null || have.state === p.tail.state) &&
    (p.tail.postcode === null || have.postcode === p.tail.postcode)
  );
}
