// Which public lots answer first where two packs' lots overlap (docs/design.md section 10): a pack's root may carry
// `info.precedence`, an integer (0 when absent); higher answers first. `npm run import -- nsw` writes IMPORTED_PRECEDENCE,
// so a council's real cadastre answers before the synthetic world's. An organisation's own packs outrank every public one.
import type { PagedPack } from "./paged/index.ts";
import type { VisiblePacks } from "./open-pack.ts";

export const PRECEDENCE_KEY = "precedence";
/** What an import writes: above the world (0), so one cadastre answers where both have lots. */
export const IMPORTED_PRECEDENCE = 10;
/** An organisation's own packs: above any public one. */
export const OWN_RANK = Number.POSITIVE_INFINITY;

/** A root's precedence: its `info.precedence` when it is an integer, else 0 (a bad value never refuses the pack). */
export function precedenceOf(info: Readonly<Record<string, string>> | undefined): number {
  const raw = info?.[PRECEDENCE_KEY];
  if (raw === undefined || !/^-?\d{1,6}$/.test(raw.trim())) return 0;
  return Number(raw.trim());
}

/** `items` highest precedence first; equal ones keep their order (stable). */
export function byPrecedence<T>(items: readonly T[], rank: (item: T) => number): T[] {
  return items
    .map((item, k) => ({ item, k, r: rank(item) }))
    .sort((a, b) => b.r - a.r || a.k - b.k)
    .map((e) => e.item);
}

/** A pack read by range with its rank: OWN_RANK for the organisation's, else its root's precedence. */
export type RankedPaged = { pack: PagedPack; rank: number; own: boolean };

/** The packs of `v` read by range, each with its rank, in list order. */
export async function rankedPaged(v: VisiblePacks): Promise<RankedPaged[]> {
  const out: RankedPaged[] = [];
  for (const p of v) {
    if (!p.paged) continue;
    const rank = p.own ? OWN_RANK : precedenceOf((await p.paged.snapshot()).root.meta.info);
    out.push({ pack: p.paged, rank, own: p.own });
  }
  return out;
}

/**
 * Splits ranked packs into those that outrank another in scope (read whole over an area, so lower-ranked lots under
 * them are left out) and the public ones of the lowest rank, `floor` (scanned page by page; 0 when there are none).
 */
export function leadingPaged(ranked: readonly RankedPaged[]): {
  leading: RankedPaged[];
  rest: RankedPaged[];
  floor: number;
} {
  const pub = ranked.filter((r) => !r.own);
  const floor = pub.length > 0 ? Math.min(...pub.map((r) => r.rank)) : 0;
  return {
    leading: [...ranked.filter((r) => r.own), ...pub.filter((r) => r.rank > floor)],
    rest: pub.filter((r) => r.rank <= floor),
    floor,
  };
}

/** The public packs of `ranked` that outrank `pack` (their lots hide its lots under them), highest first. */
export function packsAbove(ranked: readonly RankedPaged[], pack: PagedPack): RankedPaged[] {
  const mine = ranked.find((r) => r.pack === pack);
  if (!mine) return [];
  return byPrecedence(
    ranked.filter((r) => !r.own && r.rank > mine.rank),
    (r) => r.rank,
  );
}

// The rule itself sits apart (parcelAt reads it too, where this file's pack lists would make an import cycle).
export { underHigherLot } from "./hidden-lots.ts";
