// Street addresses for a suburb's lots ("14 Wattle Street, Penrith NSW"): the synthetic world names its streets so
// that a person can find a lot by address (the suggestions read the packs' `address`), as in a real cadastre.
//
// A street is one road line between two rows of blocks, cut into stretches of BLOCKS_PER_STREET blocks (a real
// street rarely runs the width of a suburb). Its lots are numbered in order along it from the stretch's start, odd on
// one side and even on the other. The cross streets between columns of blocks are cut into stretches of
// ROWS_PER_CROSS_STREET rows and named after the road lines, from the same seeded walk (street-lines.ts draws both).
import { hash32 } from "./hash-random.ts";
import type { Plan } from "./plan.ts";
import type { ZoneCode } from "./zones.ts";

export const BLOCKS_PER_STREET = 4;
export const ROWS_PER_CROSS_STREET = 5;

// Common Australian street names (trees, explorers, governors, towns and local words).
const NAMES = [
  "Acacia",
  "Albert",
  "Alexander",
  "Anzac",
  "Arthur",
  "Ash",
  "Banksia",
  "Barton",
  "Bass",
  "Beach",
  "Bellevue",
  "Birch",
  "Bligh",
  "Bluegum",
  "Boronia",
  "Bourke",
  "Bridge",
  "Brighton",
  "Brown",
  "Burke",
  "Burns",
  "Bushland",
  "Cambridge",
  "Campbell",
  "Carrington",
  "Cedar",
  "Charles",
  "Church",
  "Clarence",
  "Collins",
  "Cook",
  "Coral",
  "Cross",
  "Cypress",
  "Darling",
  "Denison",
  "Dixon",
  "Edward",
  "Elizabeth",
  "Elm",
  "Eucalyptus",
  "Fig",
  "Finch",
  "Fitzroy",
  "Flinders",
  "Forest",
  "Francis",
  "George",
  "Gordon",
  "Grafton",
  "Grevillea",
  "Hakea",
  "Harbour",
  "Harris",
  "Hawthorn",
  "Henry",
  "High",
  "Hill",
  "Hume",
  "Hunter",
  "Ironbark",
  "James",
  "Jacaranda",
  "John",
  "Kent",
  "King",
  "Kurrajong",
  "Lachlan",
  "Lawson",
  "Lilly Pilly",
  "Lindsay",
  "Link",
  "Macarthur",
  "Macquarie",
  "Mary",
  "Melaleuca",
  "Mimosa",
  "Mitchell",
  "Murray",
  "Myrtle",
  "Nelson",
  "Norfolk",
  "Oak",
  "Orchard",
  "Oxford",
  "Oxley",
  "Palmer",
  "Park",
  "Parkes",
  "Pine",
  "Phillip",
  "Queen",
  "Railway",
  "Redgum",
  "Regent",
  "River",
  "Robertson",
  "Rose",
  "Russell",
  "Sandstone",
  "School",
  "Shepherd",
  "Smith",
  "Spencer",
  "Station",
  "Stirling",
  "Sturt",
  "Sydney",
  "Tasman",
  "Telopea",
  "Thomas",
  "Torrens",
  "Victoria",
  "View",
  "Waratah",
  "Warrah",
  "Wattle",
  "Wentworth",
  "William",
  "Wilson",
  "Windsor",
  "Yarra",
  "York",
  "Young",
];
const KINDS = ["Street", "Road", "Avenue", "Parade", "Crescent", "Place", "Close", "Drive", "Way", "Lane"];

// A stretch of a road line: road line j runs before row j's blocks; stretch s holds blocks k of floor(k / 4) = s.
const stretchKey = (line: number, stretch: number) => `${line}:${stretch}`;

/** A suburb's street names: road line j's stretch s, and cross street k's (before column k) stretch t of rows. */
export type StreetNames = { row(line: number, stretch: number): string; cross(line: number, stretch: number): string };

/**
 * Every stretch of road line in the plan (built on or not), then every stretch of cross street beside a block with
 * lots, named in a seeded order: the road lines first, so adding the cross streets renamed no road line (unique
 * within the suburb while the 1,240 names last: only the largest rural suburbs run out).
 */
export function streetNames(plan: Plan): StreetNames {
  const rows = new Map<string, [number, number]>();
  const cross = new Map<string, [number, number]>();
  const built = new Set(plan.lots.map((l) => l.cell));
  for (const c of plan.cells) {
    const s = Math.floor(c.k / BLOCKS_PER_STREET);
    for (const line of [c.j, c.j + 1]) rows.set(stretchKey(line, s), [line, s]);
    if (!built.has(c.idx)) continue;
    const t = Math.floor(c.j / ROWS_PER_CROSS_STREET);
    for (const line of [c.k, c.k + 1]) cross.set(stretchKey(line, t), [line, t]);
  }
  const byLine = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
  const combos = NAMES.length * KINDS.length;
  // A seeded walk over every name and kind: a step coprime to the count visits each once before any repeats.
  let step = 1 + (hash32(plan.seed, 0x57) % (combos - 1));
  while (gcd(step, combos) !== 1) step++;
  const start = hash32(plan.seed, 0x58) % combos;
  const nameAt = (i: number) => {
    const n = (start + i * step) % combos;
    return `${NAMES[n % NAMES.length]} ${KINDS[Math.floor(n / NAMES.length)]}`;
  };
  const rowNames = new Map<string, string>();
  [...rows.values()].sort(byLine).forEach(([line, s], i) => {
    rowNames.set(stretchKey(line, s), nameAt(i));
  });
  const crossNames = new Map<string, string>();
  [...cross.values()].sort(byLine).forEach(([line, t], i) => {
    crossNames.set(stretchKey(line, t), nameAt(rows.size + i));
  });
  const named = (m: Map<string, string>, line: number, s: number) => {
    const name = m.get(stretchKey(line, s));
    if (name === undefined) throw new Error(`${plan.suburb.name} has no street ${line}:${s}`);
    return name;
  };
  return { row: (line, s) => named(rowNames, line, s), cross: (line, t) => named(crossNames, line, t) };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

// Parks, bushland reserves and infrastructure are land uses, not lots for sale: no street address.
const UNADDRESSED: ReadonlySet<ZoneCode> = new Set(["RE1", "C2", "SP2"]);

/**
 * Each of the plan's lots' address, in plan order (null for a park, reserve or infrastructure): the street its front
 * faces, its number along it, the suburb. Each side of a street is numbered in order along it, 1, 3, 5 on one side
 * and 2, 4, 6 on the other, as councils number a street: continuous, never a gap where no lot stands.
 */
export function addressesOf(plan: Plan): (string | null)[] {
  const names = streetNames(plan);
  const sides = new Map<string, number[]>();
  plan.lots.forEach((l, i) => {
    if (UNADDRESSED.has(l.zone)) return;
    const c = plan.cells[l.cell];
    if (!c) throw new Error(`lot in no block (${l.cell})`);
    // A lot at the row's start faces the road before it; one that starts mid-block faces the road after it.
    const front = l.v0 === c.v0;
    const key = `${stretchKey(front ? c.j : c.j + 1, Math.floor(c.k / BLOCKS_PER_STREET))}|${front ? 1 : 2}`;
    const side = sides.get(key);
    if (side) side.push(i);
    else sides.set(key, [i]);
  });
  const out: (string | null)[] = plan.lots.map(() => null);
  for (const [key, lots] of sides) {
    const [street, first] = key.split("|") as [string, string];
    const [line, s] = street.split(":").map(Number) as [number, number];
    const name = names.row(line, s);
    lots.sort((a, b) => (plan.lots[a]?.u0 ?? 0) - (plan.lots[b]?.u0 ?? 0));
    lots.forEach((i, k) => {
      out[i] = `${Number(first) + 2 * k} ${name}, ${plan.suburb.name} NSW`;
    });
  }
  return out;
}
