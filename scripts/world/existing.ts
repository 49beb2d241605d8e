// What stands on each of the world's lots (issue 50, item 5), deterministic from the seed and plausible by zone and by the
// era the suburb was built in: houses, dual occupancies, strata buildings of n units with their strata plan number,
// vacant lots, and employment buildings with their floor space (the rules are stated in packs/README.md).
import { between, unit } from "./hash-random.ts";
import type { SuburbClass } from "./character.ts";
import type { Lot, Plan } from "./plan.ts";
import type { ZoneCode } from "./zones.ts";

/** The parcels fields the world records, in order: what an upload may carry too (src/packs/upload/layer-specs.ts). */
export const EXISTING_FIELDS = ["existing_use", "dwellings", "strata_plan", "units", "floor_space_m2"] as const;
export type ExistingRow = [string, number, string | null, number | null, number | null];

// When a suburb's strata schemes were registered, as strata plan numbers (SP 1 was 1961; about SP 10,000 by 1975,
// 40,000 by 1990, 60,000 by 2000, 95,000 by 2016, 110,000 by 2026): the walk-up flats of the older rings are early.
const SP_BY_ERA: Record<SuburbClass, [number, number]> = {
  cbd: [20_000, 108_000],
  inner: [500, 30_000],
  middle: [1_000, 35_000],
  leafy: [2_000, 45_000],
  outer: [10_000, 65_000],
  estate: [65_000, 108_000],
  rural: [20_000, 90_000],
  industrial: [20_000, 90_000],
};
// Apartments near stations and in centres are mostly recent, whatever the ring.
const SP_RECENT: [number, number] = [70_000, 108_000];

// Per zone: the chance of a strata building, a dual occupancy and a vacant lot (the rest a house), the floor space
// ratio a strata building has and the floor space of its average unit.
type Mix = { strata: number; dual: number; vacant: number; fsr: [number, number]; unitM2: number };
const HOUSING: Partial<Record<ZoneCode, Mix>> = {
  R1: { strata: 0.07, dual: 0.02, vacant: 0.01, fsr: [0.6, 0.9], unitM2: 80 },
  R2: { strata: 0.02, dual: 0.05, vacant: 0.01, fsr: [0.4, 0.6], unitM2: 110 },
  R3: { strata: 0.15, dual: 0.08, vacant: 0.02, fsr: [0.45, 0.7], unitM2: 110 },
  R4: { strata: 0.55, dual: 0.03, vacant: 0.04, fsr: [0.8, 1.4], unitM2: 85 },
  // The rest of MU1 is shops, vacant as employment land is.
  MU1: { strata: 0.4, dual: 0, vacant: 0, fsr: [1.5, 3], unitM2: 85 },
};
// New estates still have lots for sale; the older rings have few empty lots.
const ESTATE_VACANT = 0.08;
// Built floor space over lot area of employment land by zone (a range; E2 in the city core far higher).
const EMPLOYMENT_FSR: Partial<Record<ZoneCode, [number, number]>> = {
  E1: [0.6, 1.2],
  E2: [1.5, 4],
  E3: [0.4, 0.7],
  E4: [0.35, 0.6],
  MU1: [0.8, 1.5],
  SP2: [0.1, 0.4],
};
const CBD_E2_FSR: [number, number] = [4, 8];
const EMPLOYMENT_VACANT = 0.03;
// Parks, reserves and bushland: nothing built.
const OPEN_LAND: ReadonlySet<ZoneCode> = new Set(["RE1", "C2"]);

const within = ([lo, hi]: [number, number], u: number) => lo + (hi - lo) * u;

/** What stands on a lot of the plan, as its parcels' EXISTING_FIELDS. */
export function existingOf(plan: Plan, lot: Lot): ExistingRow {
  const { seed, ch } = plan;
  const draw = (tag: number) => unit(seed, 0xe815, tag, lot.cell, lot.lotNo);
  const area = (lot.u1 - lot.u0) * (lot.v1 - lot.v0);
  const zone = lot.zone;
  if (OPEN_LAND.has(zone)) return ["vacant", 0, null, null, null];
  const housing = HOUSING[zone];
  const x = draw(1);
  if (housing) {
    const vacant = ch.cls === "estate" ? ESTATE_VACANT : housing.vacant;
    if (x < housing.strata) {
      const units = Math.max(2, Math.floor((area * within(housing.fsr, draw(2))) / housing.unitM2));
      const recent = zone === "MU1" || (zone === "R4" && draw(3) < 0.3);
      const [lo, hi] = recent ? SP_RECENT : SP_BY_ERA[ch.cls];
      return ["strata", units, `SP${between(lo, hi, seed, 0xe816, lot.cell, lot.lotNo)}`, units, null];
    }
    if (x < housing.strata + housing.dual) return ["dual_occupancy", 2, null, null, null];
    if (x < housing.strata + housing.dual + vacant) return ["vacant", 0, null, null, null];
    if (zone !== "MU1") return ["house", 1, null, null, null];
  }
  // Employment land, and MU1's shops: the floor space the buildings have.
  if (x >= 1 - EMPLOYMENT_VACANT) return ["vacant", 0, null, null, null];
  const ratio = zone === "E2" && ch.cls === "cbd" ? CBD_E2_FSR : EMPLOYMENT_FSR[zone];
  // A zone the world gains later must be given its buildings here, not a made-up default.
  if (ratio === undefined) throw new Error(`no existing use is drawn for zone ${zone}`);
  return ["employment", 0, null, null, Math.round(area * within(ratio, draw(4)))];
}
