// The transport pack from packs/sources/: every line resolves to real stations, colours from GTFS routes.txt, and
// the committed pack is what `npm run pack -- transport` writes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildTransportPack, readTransportSources, transportNetwork } from "../../../scripts/pack/transport.ts";

const sources = readTransportSources(new URL("../../../packs/sources", import.meta.url).pathname);
const { stations, lines } = transportNetwork(sources);
const station = (name: string, mode?: string) =>
  stations.find((s) => s.name === name && (mode === undefined || s.mode === mode));

describe("the transport network", () => {
  it("has the lines T1 to T9, M1 and L1 to L4, each coloured as routes.txt says", () => {
    expect(lines.map((l) => l.line).sort()).toEqual(
      ["L1", "L2", "L3", "L4", "M1", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9"].sort(),
    );
    expect(lines.find((l) => l.line === "T1")?.colour).toBe("#F99D1C");
    expect(lines.find((l) => l.line === "M1")?.colour).toBe("#168388");
    expect(lines.find((l) => l.line === "L4")?.mode).toBe("Light rail");
  });

  it("has Parramatta Light Rail's 16 stops, Carlingford among them as light rail, not as a train station", () => {
    expect(stations.filter((s) => s.lines.includes("L4"))).toHaveLength(16);
    expect(station("Carlingford")?.mode).toBe("Light rail");
    expect(stations.filter((s) => s.name === "Carlingford")).toHaveLength(1);
  });

  it("names a station's mode by its heaviest line and lists every line that stops there", () => {
    expect(station("Chatswood")).toMatchObject({ mode: "Trains" });
    expect(station("Chatswood")?.lines.sort()).toEqual(["M1", "T1", "T9"]);
    expect(station("Castle Hill")?.mode).toBe("Metro");
    expect(station("Glebe")?.mode).toBe("Light rail");
  });

  it("does not count a station a line only passes (T1 runs through Newtown without stopping)", () => {
    expect(station("Newtown")?.lines.sort()).toEqual(["T2", "T3"]);
  });

  it("puts every station inside Greater Sydney", () => {
    for (const s of stations) {
      expect(s.lon).toBeGreaterThan(150.5);
      expect(s.lon).toBeLessThan(151.4);
      expect(s.lat).toBeGreaterThan(-34.3);
      expect(s.lat).toBeLessThan(-33.5);
    }
  });
});

describe("packs/sydney-transport.pack", () => {
  it("is byte for byte what the builder writes from packs/sources/", async () => {
    const { bytes } = await buildTransportPack(sources);
    const committed = readFileSync(new URL("../../../packs/sydney-transport.pack", import.meta.url));
    expect(Buffer.from(bytes).equals(committed)).toBe(true);
  });
});
