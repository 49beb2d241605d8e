// Places of the small world the browser tests run on, read from the world itself (never guessed): a suburb's lots
// nearest its station lie in its first block, so they are there at every world size.
import { inject } from "vitest";
import { testWorld } from "../../scripts/dev/test-world.ts";
import { lotsIn, openWorld, type WorldLot } from "../../scripts/world/world-lots.ts";

export const WORLD_PACK = "greater-sydney";

const memo = new Map<string, Promise<WorldLot[]>>();

/** The file of the world the stack was started with (built again only when the tests run without a stack). */
export async function worldPath(): Promise<string> {
  return inject("worldPath") || (await testWorld(() => {})).path;
}

async function read(suburb: string): Promise<WorldLot[]> {
  const world = await openWorld(await worldPath());
  try {
    const lots = await lotsIn(world, new Set([suburb]));
    return lots
      .filter((l) => l.address && l.stationM !== null)
      .sort((a, b) => (a.stationM as number) - (b.stationM as number) || (a.lotId < b.lotId ? -1 : 1));
  } finally {
    await world.close();
  }
}

/** The suburb's addressed lots, nearest its station first. */
export function stationLots(suburb: string): Promise<WorldLot[]> {
  const known = memo.get(suburb) ?? read(suburb);
  memo.set(suburb, known);
  return known;
}

/** The suburb's addressed lot nearest its station. */
export async function stationLot(suburb: string): Promise<WorldLot> {
  const lot = (await stationLots(suburb))[0];
  if (!lot) throw new Error(`the small world has no addressed lot in ${suburb}`);
  return lot;
}
