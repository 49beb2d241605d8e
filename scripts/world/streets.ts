// Street addresses for a suburb's lots ("14 Wattle Street, Penrith NSW"): the synthetic world names its streets so
// that a person can find a lot by address (the suggestions read the packs' `address`), as in a real cadastre.
//
// A street is one road line between two rows of blocks, cut into stretches of BLOCKS_PER_STREET blocks (a real
// street rarely runs the width of a suburb). Its lots are numbered along it from the stretch's start, odd on one
// side and even on the other, one number per 5 m (the narrowest lot): never two lots on one number.
import { hash32 } from "./hash-random.ts";
import type { Plan } from "./plan.ts";

const BLOCKS_PER_STREET = 4;
const METRES_PER_NUMBER = 5;

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

/** Every stretch of road in the plan (built on or not), named in a seeded order: unique within the suburb. */
function streetNames(plan: Plan): Map<string, string> {
  const stretches = new Map<string, [number, number]>();
  for (const c of plan.cells) {
    const s = Math.floor(c.k / BLOCKS_PER_STREET);
    for (const line of [c.j, c.j + 1]) stretches.set(stretchKey(line, s), [line, s]);
  }
  const lines = [...stretches.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const combos = NAMES.length * KINDS.length;
  // A seeded walk over every name and kind: a step coprime to the count visits each once before any repeats.
  let step = 1 + (hash32(plan.seed, 0x57) % (combos - 1));
  while (gcd(step, combos) !== 1) step++;
  const start = hash32(plan.seed, 0x58) % combos;
  const out = new Map<string, string>();
  lines.forEach(([line, s], i) => {
    const n = (start + i * step) % combos;
    out.set(stretchKey(line, s), `${NAMES[n % NAMES.length]} ${KINDS[Math.floor(n / NAMES.length)]}`);
  });
  return out;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Each of the plan's lots' address, in plan order: the street its front faces, its number along it, the suburb. */
export function addressesOf(plan: Plan): string[] {
  const names = streetNames(plan);
  const pitch = plan.ch.block + plan.ch.road;
  return plan.lots.map((l) => {
    const c = plan.cells[l.cell];
    if (!c) throw new Error(`lot in no block (${l.cell})`);
    // A lot at the row's start faces the road before it; one that starts mid-block faces the road after it.
    const front = l.v0 === c.v0;
    const line = front ? c.j : c.j + 1;
    const s = Math.floor(c.k / BLOCKS_PER_STREET);
    const along = Math.max(0, l.u0 - s * BLOCKS_PER_STREET * pitch);
    const n = 2 * Math.floor(along / METRES_PER_NUMBER) + (front ? 1 : 2);
    return `${n} ${names.get(stretchKey(line, s))}, ${plan.suburb.name} NSW`;
  });
}
