// The world's stations: the 2018 train feed with the Sydney Metro it lacks (North West 2019, City & Southwest 2024).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { haversineM } from "../../../src/geo/distance.ts";
import { loadInputs, WORLD_METRO } from "../../../scripts/world/inputs.ts";
import { context, ROOT } from "./small-world.ts";

const NEW = [
  "Tallawong",
  "Rouse Hill",
  "Kellyville",
  "Bella Vista",
  "Norwest",
  "Hills Showground",
  "Castle Hill",
  "Cherrybrook",
  "Crows Nest",
  "Victoria Cross",
  "Barangaroo",
  "Gadigal",
  "Waterloo",
];
const CONVERTED = ["Macquarie University", "Macquarie Park", "North Ryde"];
const INTERCHANGES = ["Epping", "Chatswood", "Martin Place", "Central", "Sydenham"];

const stations = loadInputs(ROOT).stations;
const byName = (n: string) => stations.filter((s) => s.name === `${n} Station`);

describe("the world's stations", () => {
  it("add the Metro stations the 2018 feed lacks, once each, as metro", () => {
    for (const n of NEW) {
      const found = byName(n);
      expect(found, n).toHaveLength(1);
      expect(found[0]?.mode, n).toBe("metro");
    }
  });

  it("make the converted Epping to Chatswood stations metro and keep the interchanges as train stations", () => {
    for (const n of CONVERTED)
      expect(
        byName(n).map((s) => s.mode),
        n,
      ).toEqual(["metro"]);
    for (const n of INTERCHANGES)
      expect(
        byName(n).map((s) => s.mode),
        n,
      ).toEqual(["train"]);
  });

  it("put each Metro North West station within 3 km of the next one on the line", () => {
    const line = NEW.slice(0, 8).map((n) => byName(n)[0]);
    for (let i = 1; i < line.length; i++) {
      const a = line[i - 1];
      const b = line[i];
      expect(haversineM(a?.lon ?? 0, a?.lat ?? 0, b?.lon ?? 0, b?.lat ?? 0)).toBeLessThan(3_000);
    }
  });

  it("are all in the world's transport layer, with a README that cites the opening dates and says the coordinates are approximate", () => {
    const names = new Set(context().stations.map((s) => s.name));
    for (const n of [...NEW, ...CONVERTED, ...INTERCHANGES]) expect(names.has(`${n} Station`), n).toBe(true);
    const readme = readFileSync(join(ROOT, WORLD_METRO, "..", "README.md"), "utf8");
    expect(readme).toContain("26 May 2019");
    expect(readme).toContain("19 August 2024");
    expect(readme).toMatch(/approximate/i);
  });
});
