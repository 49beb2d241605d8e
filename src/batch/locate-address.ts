// A batch row's lot by street address: the address index the suggestions read, over the pages of the suburb the
// address ends with. Only an exact address locates a row; a near miss is a row error naming the nearest address.
import { addressIndexOf, findAddresses } from "../geocode/address-index.ts";
import { type AddressParts, addressParts } from "../geocode/address-key.ts";
import { addressPages, trailingSuburb } from "../geocode/address-pages.ts";
import { ReadBudget } from "../packs/paged/index.ts";
import { MAX_PAGES_PER_REQUEST } from "../packs/request-pages.ts";
import type { PackScope } from "../packs/scope.ts";
import { PARCELS } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";

/** Pack pages one batch may read to find its rows by address: four requests' worth. */
export const ADDRESS_PAGES_PER_BATCH = 4 * MAX_PAGES_PER_REQUEST;

/** The budget a whole batch's address rows share. */
export const batchAddressBudget = (): ReadBudget => new ReadBudget({ pages: ADDRESS_PAGES_PER_BATCH });

export type AddressHit = { ok: true; lotId: string } | { ok: false; detail: string };

// Suggestions read to find the exact one among addresses that start alike ("23 Smith St" before "23 Smith St North").
const CANDIDATES = 10;

// The same address when the cores agree and any state or postcode both give agree.
function sameAddress(a: AddressParts, b: AddressParts): boolean {
  const agree = (x: string | null, y: string | null) => x === null || y === null || x === y;
  return a.core === b.core && agree(a.state, b.state) && agree(a.postcode, b.postcode);
}

// "23 pembroke st epping" as its house number and the rest ("pembroke st epping"), or null without a plain number.
function onStreet(core: string): { n: number; street: string } | null {
  const m = /^(\d+)[a-z]? (.+)$/.exec(core);
  return m ? { n: Number(m[1]), street: m[2] as string } : null;
}

/** The address on the same street whose house number is nearest, for the row error's hint; null when none. */
export function nearestOnStreet(packs: readonly Pack[], want: AddressParts): string | null {
  const target = onStreet(want.core);
  if (!target) return null;
  let best: { d: number; address: string } | null = null;
  for (const pack of packs) {
    const layer = pack.layers.get(PARCELS);
    if (layer?.kind !== "polygon") continue;
    const { keys, rows } = addressIndexOf(layer);
    for (let k = 0; k < keys.length; k++) {
      const at = onStreet(addressParts(keys[k] as string).core);
      if (!at || at.street !== target.street) continue;
      const d = Math.abs(at.n - target.n);
      if (best === null || d < best.d) best = { d, address: String(layer.props(rows[k] as number).address) };
    }
  }
  return best?.address ?? null;
}

/** The lot id at `address` in the caller's packs, reading at most what `budget` has left for the suburb's pages. */
export async function lotByAddress(scope: PackScope, address: string, budget: ReadBudget): Promise<AddressHit> {
  const whole = await scope.at([]);
  const suburb = trailingSuburb(whole, address);
  if (!suburb)
    return {
      ok: false,
      detail: `The address "${address}" does not end with a suburb the data packs know: write it as "23 Pembroke Street, Epping".`,
    };
  const pages = await addressPages(scope.visible, whole, address, budget);
  const packs = [...pages.own, ...whole, ...pages.public];
  const want = addressParts(address);
  const exact = findAddresses(packs, address, CANDIDATES).find(
    (s) => s.lot_id !== null && sameAddress(addressParts(s.name), want),
  );
  if (exact?.lot_id) return { ok: true, lotId: exact.lot_id };
  if (pages.skipped > 0)
    return {
      ok: false,
      detail: `The address "${address}" was not looked up: this file names more suburbs than one batch reads by address (${budget.limit.pages} pack pages). Split the file, or give latitude/longitude or lot numbers.`,
    };
  const near = nearestOnStreet(packs, want);
  return {
    ok: false,
    detail: `No lot has the address "${address}" in ${suburb.name}${near ? `; the nearest on that street is "${near}"` : ""}.`,
  };
}
