// The price-independent figures a site's value rests on (docs/design.md section 13), per lot in columns: the yield's
// basis, dwellings and GFA, and what stands. Computed by the score itself (at build time into the search sidecar, or
// from a pack's pages where it has none); a search sorted by value prices them on the organisation's assumptions.
import { siteFacts } from "../assess/facts.ts";
import { type DecodedPage, pagePack, type Snapshot } from "../packs/paged/index.ts";
import { PARCELS, parcelFromFeature } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import { roundTo } from "../scoring/format.ts";
import { scoreSite } from "../scoring/index.ts";
import type { ExistingKind, FeasibilityResult, YieldBasis } from "../scoring/types.ts";
import type { Assumptions } from "../value/assumptions.ts";
import { asIsValue } from "../value/as-is.ts";
import { siteResidual } from "../value/margin.ts";
import type { ValueSite } from "../value/types.ts";
import type { FactsTable } from "./facts-table.ts";
import { TupleMemo } from "./tuple-memo.ts";

/** A yield basis's code is its place here plus one (0: not known); a sidecar stores codes, so only append. */
export const YIELD_BASES = [
  "apartments",
  "tod_apartments",
  "mid_rise_apartments",
  "low_rise_apartments",
  "terraces",
  "multi_dwelling",
  "shop_top_housing",
  "subdivision",
  "dual_occupancy",
  "single_dwelling",
  "too_small",
  "floor_space",
  "no_fsr",
  "not_residential",
  "no_zone",
] as const satisfies readonly YieldBasis[];
export const EXISTING_KINDS = [
  "house",
  "dual_occupancy",
  "strata",
  "vacant",
  "employment",
] as const satisfies readonly ExistingKind[];
// Fails to compile when the scoring adds a basis or kind these lists lack.
const everyBasis: Exclude<YieldBasis, (typeof YIELD_BASES)[number]> extends never ? true : never = true;
const everyKind: Exclude<ExistingKind, (typeof EXISTING_KINDS)[number]> extends never ? true : never = true;
void everyBasis;
void everyKind;

/** One table's figures; NaN where a figure is none (exact: each is a whole number, held as a float32). */
export type { ValueColumns } from "./facts-table.ts";
import type { ValueColumns } from "./facts-table.ts";

export function emptyValueColumns(n: number): ValueColumns {
  const f32 = () => new Float32Array(n).fill(Number.NaN);
  return {
    basis: new Uint8Array(n),
    dwellings: f32(),
    gfa: f32(),
    existingKind: new Uint8Array(n),
    existingDwellings: new Float32Array(n),
    existingUnits: f32(),
    existingFloor: f32(),
  };
}

const nan = (v: number | null | undefined): number => (v === null || v === undefined ? Number.NaN : v);
const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** Lot i's figures from its feasibility result. */
export function setFigures(v: ValueColumns, i: number, r: FeasibilityResult): void {
  v.basis[i] = YIELD_BASES.indexOf(r.yieldBasis as (typeof YIELD_BASES)[number]) + 1;
  v.dwellings[i] = nan(r.dwellingYield);
  v.gfa[i] = nan(r.gfaPotentialM2);
  v.existingKind[i] = EXISTING_KINDS.indexOf(r.existing.kind) + 1;
  v.existingDwellings[i] = r.existing.dwellings;
  v.existingUnits[i] = nan(r.existing.units);
  v.existingFloor[i] = nan(r.existing.floorSpaceM2);
}

/** A lots page's figures, each lot scored from its precomputed record as a score of it would be. */
export function valueColumnsOfPage(s: Snapshot, page: DecodedPage): ValueColumns {
  const view = pagePack(s, page);
  const v = emptyValueColumns(page.count);
  for (let i = 0; i < page.count; i++) setFigures(v, i, scoreSite(siteFacts([view], parcelFromFeature(view, i))));
  return v;
}

/** A decoded pack's figures (an organisation's upload, a v1 pack), its lots' facts from the overlays in `packs`. */
export function valueColumnsOfPack(pack: Pack, packs: readonly Pack[]): ValueColumns | null {
  const layer = pack.layers.get(PARCELS);
  if (layer?.kind !== "polygon") return null;
  const v = emptyValueColumns(layer.count);
  for (let i = 0; i < layer.count; i++) setFigures(v, i, scoreSite(siteFacts(packs, parcelFromFeature(pack, i))));
  return v;
}

/** What a table's lots are priced from: their figures, suburbs and areas. */
export type PricedTable = Pick<FactsTable, "value" | "suburb" | "area">;

/** Lot i of a table as a valuation reads it, priced in its suburb; null where the table holds no figures. */
export function valueSiteAt(t: PricedTable, i: number): ValueSite | null {
  const v = t.value;
  const basis = v ? YIELD_BASES[(v.basis[i] as number) - 1] : undefined;
  const kind = v ? EXISTING_KINDS[(v.existingKind[i] as number) - 1] : undefined;
  if (!v || basis === undefined || kind === undefined) return null;
  const existing: ValueSite["existing"] = {
    kind,
    dwellings: v.existingDwellings[i] as number,
    // Not read by the valuation: what stands is priced by its kind and figures alone.
    assumed: false,
  };
  const units = v.existingUnits[i] as number;
  const floor = v.existingFloor[i] as number;
  if (!Number.isNaN(units)) existing.units = units;
  if (!Number.isNaN(floor)) existing.floorSpaceM2 = floor;
  return {
    suburb: t.suburb.names[t.suburb.codes[i] as number] ?? null,
    // As the score rounds the lot's area (its as-is floor space where an employment lot records none).
    areaM2: roundTo(Math.max(0, t.area[i] as number)),
    yieldBasis: basis,
    dwellings: orNull(v.dwellings[i] as number),
    gfaM2: orNull(v.gfa[i] as number),
    existing,
  };
}

// A lot's margin is its scheme's residual less what stands, each memoised on its own inputs: far fewer distinct than a
// lot's whole (one LGA's 100,000 lots: about 22,000 schemes and 5,500 as-is values, against 57,000 lots' inputs).
// The scheme: suburb (as a number of the reader's), yield basis, dwellings, GFA and dwellings standing (schemeOf).
const SCHEME_FIELDS = 5;
// What stands: suburb, kind, dwellings, units, floor space, and the area where the as-is value reads it.
const STANDING_FIELDS = 6;
// Distinct inputs each memo holds before it starts again (about 5 MB between the two).
const SCHEMES_HELD = 32_768;
const STANDING_HELD = 16_384;
const EMPLOYMENT = EXISTING_KINDS.indexOf("employment") + 1;

/** Each lot's margin over its as-is value on these assumptions (null: no housing scheme, or no figures). */
export function marginReader(a: Assumptions): (t: PricedTable, i: number) => number | null {
  const residuals = new TupleMemo(SCHEME_FIELDS, SCHEMES_HELD);
  const standing = new TupleMemo(STANDING_FIELDS, STANDING_HELD);
  const schemeKey = new Float64Array(SCHEME_FIELDS);
  const standingKey = new Float64Array(STANDING_FIELDS);
  // 0: no suburb (a lot priced at the default prices).
  const suburbNo = new Map<string | null, number>([[null, 0]]);
  const numbered = new WeakMap<FactsTable["suburb"]["names"], Float64Array>();
  const suburbsOf = (names: FactsTable["suburb"]["names"]): Float64Array => {
    let nos = numbered.get(names);
    if (nos) return nos;
    nos = new Float64Array(names.length);
    for (let c = 0; c < names.length; c++) {
      const name = names[c] ?? null;
      let no = suburbNo.get(name);
      if (no === undefined) {
        no = suburbNo.size;
        suburbNo.set(name, no);
      }
      nos[c] = no;
    }
    numbered.set(names, nos);
    return nos;
  };
  // The last table's suburb numbers: a table's lots come in a run, so the map is asked once a table.
  let lastNames: FactsTable["suburb"]["names"] | null = null;
  let lastNos: Float64Array = new Float64Array(0);
  return (t, i) => {
    const v = t.value;
    if (!v) return null;
    const basis = v.basis[i] as number;
    const kind = v.existingKind[i] as number;
    // A code past the lists: no figures, as valueSiteAt reads it.
    if (basis < 1 || basis > YIELD_BASES.length || kind < 1 || kind > EXISTING_KINDS.length) return null;
    if (t.suburb.names !== lastNames) {
      lastNames = t.suburb.names;
      lastNos = suburbsOf(lastNames);
    }
    // A code past the names is a lot of no suburb, as valueSiteAt reads it.
    const suburb = lastNos[t.suburb.codes[i] as number] ?? 0;
    const standingDwellings = v.existingDwellings[i] as number;
    schemeKey[0] = suburb;
    schemeKey[1] = basis;
    schemeKey[2] = v.dwellings[i] as number;
    schemeKey[3] = v.gfa[i] as number;
    schemeKey[4] = standingDwellings;
    // The lot as a valuation reads it, made once and only when a memo misses.
    let site: ValueSite | null = null;
    let rlv = residuals.get(schemeKey);
    if (rlv === undefined) {
      site = valueSiteAt(t, i) as ValueSite;
      rlv = siteResidual(site, a) ?? Number.NaN;
      residuals.set(schemeKey, rlv);
    }
    // No housing to build: sorted last, whatever stands.
    if (Number.isNaN(rlv)) return null;
    const floor = v.existingFloor[i] as number;
    standingKey[0] = suburb;
    standingKey[1] = kind;
    standingKey[2] = standingDwellings;
    standingKey[3] = v.existingUnits[i] as number;
    standingKey[4] = floor;
    // asIsValue (src/value/as-is.ts) reads the area of employment land recording no floor space alone.
    standingKey[5] = kind === EMPLOYMENT && Number.isNaN(floor) ? (t.area[i] as number) : 0;
    let asIs = standing.get(standingKey);
    if (asIs === undefined) {
      asIs = asIsValue(site ?? (valueSiteAt(t, i) as ValueSite), a);
      standing.set(standingKey, asIs);
    }
    return rlv - asIs;
  };
}
