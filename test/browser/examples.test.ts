// packs/examples against the small world the stack serves: the committed CSVs are what `npm run pack -- examples`
// writes from it, and every good row hits its lot (by point, lot id or address), so the README's steps work.
import { readFileSync } from "node:fs";
import { csvParse } from "d3-dsv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressParts } from "../../src/geocode/address-key.ts";
import { checkExamples, exampleFiles, EXAMPLE_SUBURBS } from "../../scripts/pack/world-examples.ts";
import { lotsIn, openWorld, type WorldFile } from "../../scripts/world/world-lots.ts";
import { worldPath } from "./world-places.ts";

let world: WorldFile;

describe("the example CSVs on the small world", () => {
  beforeAll(async () => {
    world = await openWorld(await worldPath());
  });
  afterAll(async () => {
    await world?.close();
  });

  it("are what the generator writes from the world, but for the addresses (run `npm run pack -- examples` when the world changes)", async () => {
    const { files } = exampleFiles(await lotsIn(world, EXAMPLE_SUBURBS));
    for (const [name, text] of Object.entries(files))
      if (name !== "epping-addresses.csv") expect(readFileSync(`packs/examples/${name}`, "utf8"), name).toBe(text);
  });

  it("hit a world lot with every good row, and miss every lot with the harbour row", async () => {
    const { expect: rows } = exampleFiles(await lotsIn(world, EXAMPLE_SUBURBS));
    expect(rows.length).toBe(30);
    expect(
      await checkExamples(
        world,
        rows.filter((r) => r.file !== "epping-addresses.csv"),
      ),
    ).toEqual([]);
  });

  it("name an Epping lot's address, however written, on every row of the addresses file", async () => {
    const epping = (await lotsIn(world, new Set(["Epping"]))).flatMap((l) =>
      l.address ? [addressParts(l.address).core] : [],
    );
    const rows = csvParse(readFileSync("packs/examples/epping-addresses.csv", "utf8"));
    expect(rows.length).toBe(5);
    expect(rows.filter((r) => !epping.includes(addressParts(`${r.address ?? ""}`).core))).toEqual([]);
  });
});
