// `npm run pack -- examples [--check-lots N]`: the example CSVs of packs/examples, chosen from the synthetic Greater
// Sydney so every good row hits a world lot at any world size. Read from the small world (every suburb's middle):
// a lot near its suburb's station lies in the first blocks each size builds, with the same id, address and shape;
// `--check-lots N` checks every row against the world of N lots too (built when the cache lacks it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureWorld } from "../world/cache.ts";
import { addressOf, lotIdAt, lotsIn, openWorld, type WorldFile, type WorldLot } from "../world/world-lots.ts";
import { testWorld } from "../dev/test-world.ts";

export const EXAMPLES_USAGE = `  npm run pack -- examples [--out-dir packs/examples] [--check-lots N] [--check-file FILE]
      the example CSVs, from the small world's lots nearest their suburbs' stations; --check-lots 1500000 checks
      every row against the full world too (--check-file against a world pack file)`;

type Row = (string | number)[];
// A row a CSV means to hit a lot: by point (lon, lat as written), by lot id, or by address.
type Expect = { file: string; lotId: string; point?: [number, number]; address?: string };

const fixed6 = (x: number) => Number(x.toFixed(6));
const cell = (v: string | number) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csv = (header: string[], rows: Row[]) => `${[header, ...rows].map((r) => r.map(cell).join(",")).join("\n")}\n`;

// In the middle of Sydney Harbour, between the Opera House and Kirribilli: inside the world's box, on no lot.
const HARBOUR: [number, number] = [151.2195, -33.8545];

/** A suburb's lots with an address, nearest its station first, every `step`-th of them (streets vary). */
function nearStation(lots: readonly WorldLot[], suburb: string, k: number, step = 3): WorldLot[] {
  const mine = lots
    .filter((l) => l.suburb === suburb && l.address && l.stationM !== null)
    .sort((a, b) => (a.stationM as number) - (b.stationM as number) || (a.lotId < b.lotId ? -1 : 1));
  const out = mine.filter((_, i) => i % step === 0).slice(0, k);
  if (out.length < k)
    throw new Error(`${suburb} has ${mine.length} addressed lots in the small world, fewer than ${k * step}`);
  return out;
}

// Lot ids in the spellings people write them.
const SPELLINGS = [
  (id: string) => id,
  (id: string) => id.replace("//", "/"),
  (id: string) => id.replace(/^(\w+)\/\/DP(\d+)$/, "Lot $1 DP $2"),
  (id: string) => id.replace(/^(\w+)\/\/DP(\d+)$/, "lot $1 dp$2"),
];
// Addresses in the ways people write them: as the world has it, street type abbreviated, lower case, state left out.
const WRITINGS = [
  (a: string) => a,
  (a: string) =>
    a
      .replace(/ Street,/, " St,")
      .replace(/ Road,/, " Rd,")
      .replace(/ NSW$/, ""),
  (a: string) => a.toLowerCase().replace(/,/g, ""),
  (a: string) => a.replace(/ NSW$/, ""),
  (a: string) => a.replace(/, /, " "),
];

/**
 * The files and the rows meant to hit lots. A lot's id and shape are the same at every world size, its house number
 * not always (a street is numbered over the lots built on it), so addresses come only from lots `addressKept` allows.
 */
export function exampleFiles(
  lots: readonly WorldLot[],
  addressKept: (lot: WorldLot) => boolean = () => true,
): { files: Record<string, string>; expect: Expect[] } {
  const expect: Expect[] = [];
  const latlon = (file: string, suburb: string, k: number) =>
    csv(
      ["site_name", "address", "latitude", "longitude"],
      nearStation(lots, suburb, k).map((l, i) => {
        const point: [number, number] = [fixed6(l.point[0]), fixed6(l.point[1])];
        expect.push({ file, lotId: l.lotId, point });
        return [`${suburb} site ${i + 1}`, l.address as string, point[1], point[0]];
      }),
    );
  const epping = nearStation(lots, "Epping", 8);
  const lotRows = epping.map((l, i) => {
    expect.push({ file: "epping-lots.csv", lotId: l.lotId });
    return [`Epping lot ${i + 1}`, (SPELLINGS[i % SPELLINGS.length] as (id: string) => string)(l.lotId)];
  });
  const addressed = nearStation(lots.filter(addressKept), "Epping", 5, 2);
  const addressRows = addressed.map((l, i) => {
    expect.push({ file: "epping-addresses.csv", lotId: l.lotId, address: l.address as string });
    return [`Epping address ${i + 1}`, (WRITINGS[i % WRITINGS.length] as (a: string) => string)(l.address as string)];
  });
  const [good, swapped] = nearStation(lots, "Erskineville", 2) as [WorldLot, WorldLot];
  const goodPoint: [number, number] = [fixed6(good.point[0]), fixed6(good.point[1])];
  expect.push({ file: "mixed-problems.csv", lotId: good.lotId, point: goodPoint });
  const files = {
    "newtown-latlon.csv": latlon("newtown-latlon.csv", "Newtown", 10),
    "parramatta-latlon.csv": latlon("parramatta-latlon.csv", "Parramatta", 6),
    "epping-lots.csv": csv(["site_name", "lot_number"], lotRows),
    "epping-addresses.csv": csv(["site", "address"], addressRows),
    "mixed-problems.csv": csv(
      ["site_name", "address", "latitude", "longitude"],
      [
        ["Good row", good.address as string, goodPoint[1], goodPoint[0]],
        ["Outside every pack (Melbourne)", "1 Collins Street, Melbourne VIC 3000", -37.8136, 144.9631],
        [
          "Latitude and longitude swapped",
          swapped.address as string,
          fixed6(swapped.point[0]),
          fixed6(swapped.point[1]),
        ],
        ["Not a number", "somewhere in Newtown", "-33.89x", "151.18"],
        ["Missing longitude", "Newtown NSW", -33.8978, ""],
        ["Inside the world's box but on no lot (Sydney Harbour)", "Sydney Harbour", HARBOUR[1], HARBOUR[0]],
        ["Latitude out of range", "nowhere", -133.9, 151.18],
      ],
    ),
  };
  return { files, expect };
}

/** Every row where it should land in this world: its lot at its point, its id borne, its address the lot's. */
export async function checkExamples(world: WorldFile, expect: readonly Expect[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const e of expect) {
    const address = await addressOf(world, e.lotId);
    if (address === null) wrong.push(`${e.file}: no lot ${e.lotId}`);
    else if (e.address !== undefined && address !== e.address) wrong.push(`${e.file}: ${e.lotId} is at ${address}`);
    if (e.point) {
      const at = await lotIdAt(world, e.point[0], e.point[1]);
      if (at !== e.lotId) wrong.push(`${e.file}: ${e.point.join(", ")} is on ${at ?? "no lot"}, not ${e.lotId}`);
    }
  }
  const sea = await lotIdAt(world, HARBOUR[0], HARBOUR[1]);
  if (sea !== null) wrong.push(`mixed-problems.csv: the harbour point is on lot ${sea}`);
  return wrong;
}

export const EXAMPLE_SUBURBS: ReadonlySet<string> = new Set(["Newtown", "Parramatta", "Epping", "Erskineville"]);

export async function examplesCommand(flags: ReadonlyMap<string, string>): Promise<void> {
  const outDir = flags.get("out-dir") ?? "packs/examples";
  const small = await testWorld();
  const worlds = [{ label: "small", path: small.path }];
  const checkLots = flags.get("check-lots");
  if (checkLots) worlds.push({ label: checkLots, path: (await ensureWorld({ lots: Number(checkLots) })).path });
  const checkFile = flags.get("check-file");
  if (checkFile) worlds.push({ label: checkFile, path: checkFile });
  const first = await openWorld(small.path);
  const lots = await lotsIn(first, EXAMPLE_SUBURBS);
  await first.close();
  // Epping's addresses as every checked world numbers them: only those all agree on are written.
  const kept = new Set(lots.filter((l) => l.suburb === "Epping").map((l) => l.lotId));
  for (const w of worlds.slice(1)) {
    const world = await openWorld(w.path);
    for (const l of lots.filter((x) => kept.has(x.lotId)))
      if ((await addressOf(world, l.lotId)) !== l.address) kept.delete(l.lotId);
    await world.close();
  }
  const { files, expect } = exampleFiles(lots, (l) => kept.has(l.lotId));
  for (const w of worlds) {
    const world = await openWorld(w.path);
    const wrong = await checkExamples(world, expect);
    await world.close();
    if (wrong.length > 0) throw new Error(`the examples miss the ${w.label} world:\n${wrong.join("\n")}`);
    console.log(`examples: all ${expect.length} good rows hit their lots in the ${w.label} world (${w.path})`);
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  console.log(`wrote ${Object.keys(files).length} example CSVs to ${outDir}`);
}
